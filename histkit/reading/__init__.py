"""The reading layer: bytes to text, text to hand blocks, files to byte ranges.

Nothing here is site knowledge: which lines start a hand is asked of the dialects
(`histkit.dialects.HandStarts`), so a folder that mixes sites is read in one pass.
`histkit.reader` puts the pieces together (files, chunks, detection, parsing).
"""
