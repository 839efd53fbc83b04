"""The paper `testbed` (catalogue.yaml): its claim checks, scorecard rows, figures and tables."""
