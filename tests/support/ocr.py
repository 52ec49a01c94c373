"""What tesseract reads in a stored picture, for the privacy tests that look
for a secret in every thumbnail and click crop."""

from __future__ import annotations

import io
import subprocess

from testbed.executables import executable


def ocr(png_or_webp: bytes) -> str:
    """Everything tesseract reads in an image upscaled 4×, tried several ways
    (as it is and binarised, as a block of text and as sparse text): the
    more readings, the harder for a secret to hide. Upper-cased, without
    spaces or line breaks."""
    from PIL import Image

    gray = Image.open(io.BytesIO(png_or_webp)).convert("L")
    large = gray.resize((gray.width * 4, gray.height * 4), Image.Resampling.LANCZOS)
    readings = []
    for image in (large, large.point(lambda p: 255 if p > 160 else 0)):
        buffer = io.BytesIO()
        image.save(buffer, "PNG")
        for mode in ("6", "11"):
            result = subprocess.run([executable("tesseract"), "stdin", "stdout", "--psm", mode],
                                    input=buffer.getvalue(), capture_output=True, timeout=60)
            readings.append(result.stdout.decode(errors="replace"))
    return "|".join(readings).upper().replace(" ", "").replace("\n", "")
