"""The paper `mininet` (catalogue.yaml): its claim checks, scorecard rows, figures and tables."""
