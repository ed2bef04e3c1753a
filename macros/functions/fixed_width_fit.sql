-- A fixed-width sink's value cut to at most `width` bytes, at the largest character
-- boundary at or below it (Clinker's FixedWidthWriter::pad_and_justify never splits a
-- character): the bytes after a cut that are continuation bytes (80-BF) belong to the
-- character the cut would split, so the cut moves back before it (at most 3 bytes).
CREATE TEMPORARY FUNCTION cxl_fixed_width_fit(text STRING, width INT) RETURNS STRING RETURN
CASE
  WHEN text IS NULL THEN ''
  WHEN OCTET_LENGTH(text) <= width THEN text
  ELSE DECODE(SUBSTRING(ENCODE(text, 'UTF-8'), 1,
    CASE
      WHEN NOT HEX(SUBSTRING(ENCODE(text, 'UTF-8'), width + 1, 1)) BETWEEN '80' AND 'BF'
      THEN width
      WHEN NOT HEX(SUBSTRING(ENCODE(text, 'UTF-8'), width, 1)) BETWEEN '80' AND 'BF'
      THEN width - 1
      WHEN NOT HEX(SUBSTRING(ENCODE(text, 'UTF-8'), width - 1, 1)) BETWEEN '80' AND 'BF'
      THEN width - 2
      ELSE width - 3
    END), 'UTF-8')
END;
