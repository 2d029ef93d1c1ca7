"""`bench grounding`: how often `find` names the object people meant, on published referring-expression datasets.

- datasets.py: rows of ReferIt3D (Nr3D, Sr3D) CSVs and ScanRefer JSON, read into one shape;
- boxes.py: the ground-truth boxes of a scan turned into a scene (one room, each object a box of points);
- sr3d.py: Sr3D-style template sentences written from the boxes (the dataset's five reference types);
- run.py: each row through `find` (or a planner), scored right / asks / wrong; report.py: the tables.
"""
