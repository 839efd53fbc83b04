"""The paper `mm1` (catalogue.yaml): its claim checks, scorecard rows, figures and tables."""
