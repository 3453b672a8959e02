"""`kg eval`: extractions scored against a gold file (`score`), both files read and checked
record by record (`gold`).
"""
