"""`bench grounding`: how often `find` names the object people meant, on published referring-expression datasets;
and what one description costs it on a large building.

- bench.py: the command's work, from its options to the report;
- datasets.py: rows of ReferIt3D (Nr3D, Sr3D) CSVs and ScanRefer JSON, read into one shape, and the dev / held-out split;
- boxes.py: the ground-truth boxes of a scan turned into a scene (one room, each object a box of points);
- scans.py: where scenes come from (boxes, or ScanNet scans imported with their ids), cached;
- relations.py, sr3d.py: Sr3D-style template sentences written from the boxes (the dataset's five reference types);
- run.py: each row through the current reading and the baselines, scored right / asks / wrong;
- before/: the baseline "before", a frozen copy of the reading as it was before grammar.py;
- agent_policy.py: the current reading through the OpenAI planner instead (`--planner openai`);
- report.py: the tables and the JSON document;
- speed.py: `--scene`, find timed on a large building beside a home.

How to run it and read it: docs/grounding.md.
"""
