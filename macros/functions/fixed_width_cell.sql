-- A fixed-width sink's field: its value's text (null: empty) cut to `width` bytes, then
-- padded with the one-byte `pad` to exactly `width` bytes, on the left when right-justified
-- (Clinker's FixedWidthWriter::pad_and_justify). Padding counts characters, the width
-- bytes: the pad goes to the character length that makes the bytes `width`.
CREATE TEMPORARY FUNCTION cxl_fixed_width_cell(text STRING, width INT, pad STRING,
                                               right_justified BOOLEAN) RETURNS STRING RETURN
CASE
  WHEN right_justified
  THEN LPAD(cxl_fixed_width_fit(text, width),
            width - OCTET_LENGTH(cxl_fixed_width_fit(text, width))
              + LENGTH(cxl_fixed_width_fit(text, width)), pad)
  ELSE RPAD(cxl_fixed_width_fit(text, width),
            width - OCTET_LENGTH(cxl_fixed_width_fit(text, width))
              + LENGTH(cxl_fixed_width_fit(text, width)), pad)
END;
