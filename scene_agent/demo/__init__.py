"""The deterministic demo scene: a two-floor home sampled as coloured point clouds (`build`), and where it
lives on disk, built on first use (`place`)."""
