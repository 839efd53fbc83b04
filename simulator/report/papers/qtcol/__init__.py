"""The paper `qtcol` (catalogue.yaml): its claim checks, scorecard rows, figures and tables."""
