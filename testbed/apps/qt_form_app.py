"""A small Qt 5 form (PyQt5 from Debian's python3-pyqt5): a labelled line
edit, a Submit button and a status label. Qt exposes its widgets to AT-SPI
only when accessibility is switched on — the harness enables the bus
(`org.a11y.Status IsEnabled`), and this app also sets
QT_LINUX_ACCESSIBILITY_ALWAYS_ON, as a person would in their session.
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1")
os.environ.setdefault("QT_ACCESSIBILITY", "1")

from PyQt5.QtWidgets import QApplication, QFormLayout, QLabel, QLineEdit, QPushButton, QWidget  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="Phantom Qt form fixture app")
    parser.add_argument("--geometry", help="WIDTHxHEIGHT+X+Y")
    args = parser.parse_args()
    app = QApplication(sys.argv[:1])
    app.setApplicationName("phantom-qt-form")
    app.setDesktopFileName("phantom-qt-form")
    window = QWidget()
    window.setWindowTitle("Qt Form")
    layout = QFormLayout(window)
    name = QLineEdit()
    name.setAccessibleName("Name")
    layout.addRow(QLabel("Name:"), name)
    status = QLabel("Ready")   # Qt names a label after its text: the test reads it there
    submit = QPushButton("Submit")
    submit.clicked.connect(lambda: status.setText(f"Submitted: {name.text()}"))
    layout.addRow(submit)
    layout.addRow(status)
    if args.geometry:
        size, _, rest = args.geometry.partition("+")
        width, height = (int(v) for v in size.split("x"))
        x, _, y = rest.partition("+")
        window.setGeometry(int(x or 0), int(y or 0), width, height)
    window.show()
    sys.exit(app.exec_())


if __name__ == "__main__":
    main()
