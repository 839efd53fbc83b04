"""The paper `ns2` (catalogue.yaml): its claim checks, scorecard rows, figures and tables."""
