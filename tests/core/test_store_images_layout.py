"""How images are kept: click crops as lossless WebP (the same pixels as the
PNG they were, alpha and the black under a mask included) and migration 6's
rowid `blobs` table, which every reader and writer uses as they used the
WITHOUT ROWID one — same columns, same rows, same keys."""

from __future__ import annotations

import hashlib
import io

import apsw
import numpy as np
import pytest
from PIL import Image

from core.store import MIGRATIONS, SCHEMA_VERSION, BlobRow, StoreWriter, open_readonly, open_store
from core.store.connection import migrate
from core.store.migration_5 import TRIGGERS
from core.store.migration_6 import REBUILD_AT_MOST, layout
from core.store.records import insert_sql
from core.store.schema import APPLICATION_ID
from core.visual_evidence import MEDIA_TYPE, Masks, crop_variants


def screen(width=800, height=600):
    """A textured screen (every pixel differs from its neighbours) with a flat panel."""
    ys, xs = np.mgrid[0:height, 0:width]
    shot = np.stack([(xs * 7 + ys * 3) % 256, (xs * 5 + ys * 11) % 256, (xs ^ ys) % 256],
                    axis=2).astype(np.uint8)
    shot[250:350, 380:520] = (236, 236, 236)
    return shot


def old_png(data: bytes) -> bytes:
    """The crop as the daemon encoded it before (PNG, level 6)."""
    buffer = io.BytesIO()
    Image.open(io.BytesIO(data)).save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()


@pytest.mark.parametrize("masks", [Masks(), Masks(editable=((390, 280, 120, 30),)),
                                   Masks(excluded=((0, 0, 395, 600),), editable=((390, 280, 120, 30),))])
def test_a_crop_is_lossless_webp_with_the_pixels_the_png_had(masks):
    import cv2

    shot = screen()
    variants = crop_variants(shot, 400, 300, (100, 100, 600, 450), masks)
    assert len(variants) == 3
    for variant in variants:
        assert variant.data[:4] == b"RIFF" and variant.data[8:12] == b"WEBP" and MEDIA_TYPE == "image/webp"
        assert variant.sha256 == hashlib.sha256(variant.data).hexdigest()
        png = old_png(variant.data)
        ours = Image.open(io.BytesIO(variant.data))
        theirs = Image.open(io.BytesIO(png))
        assert ours.mode == theirs.mode == ("RGBA" if variant.masked else "RGB")
        assert ours.tobytes() == theirs.tobytes()
        # the pixels themselves, not just two decodes agreeing: the screen as it was, masked as before
        pixels = np.asarray(ours)
        left, top = variant.x, variant.y
        window = shot[top:top + variant.height, left:left + variant.width]
        if variant.masked:
            hidden = pixels[:, :, 3] == 0
            assert int(hidden.sum()) == variant.masked
            assert not pixels[hidden][:, :3].any()                   # black under the mask, exactly
            assert np.array_equal(pixels[~hidden][:, :3], window[~hidden])
        else:
            assert np.array_equal(pixels, window)
        # replay's decoder (OpenCV) reads both the same way, channels and alpha included
        now = cv2.imdecode(np.frombuffer(variant.data, np.uint8), cv2.IMREAD_UNCHANGED)
        before = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
        assert now.shape == before.shape and np.array_equal(now, before)
        assert len(variant.data) < len(png)


def test_a_new_store_keeps_images_in_a_rowid_table_keyed_by_digest(tmp_path):
    db = tmp_path / "s.sqlite3"
    connection = open_store(db)
    assert layout(connection) == "rowid"
    crop = crop_variants(screen(), 400, 300, (100, 100, 600, 450))[0]
    row = BlobRow(crop.sha256, "click_crop", MEDIA_TYPE, crop.width, crop.height, crop.data, 5)
    connection.execute(insert_sql(BlobRow), row.values())
    connection.execute(insert_sql(BlobRow), row.values())       # content-addressed: stored once
    assert connection.execute("SELECT sha256, kind, media_type, width, height, data, created_ms "
                              "FROM blobs").fetchall() == [row.values()]
    with pytest.raises(apsw.ConstraintError):                    # the digest is the key, never empty
        connection.execute("INSERT INTO blobs VALUES (NULL, 'thumbnail', 'image/webp', 1, 1, x'00', 0)")
    with pytest.raises(apsw.ConstraintError):                    # the foreign keys still name it
        connection.execute("INSERT INTO input_events(id, ts_ms, end_ms, monitor, kind, count, crop) "
                           "VALUES (1, 1, 1, 0, 'click', 1, ?)", ("0" * 64,))
    connection.execute("INSERT INTO input_events(id, ts_ms, end_ms, monitor, kind, count, crop) "
                       "VALUES (1, 1, 1, 0, 'click', 1, ?)", (crop.sha256,))
    connection.close()


def version_5_store(db, blobs: int):
    """A store of schema 5 with `blobs` images (WITHOUT ROWID, as it was) and
    rows naming them: a snapshot's screenshot, a click's crop and evidence."""
    raw = apsw.Connection(str(db))
    with raw:
        for migration in MIGRATIONS[:5]:
            raw.execute(migration.sql)
        raw.pragma("application_id", APPLICATION_ID)
        raw.pragma("user_version", 5)
        rows = [(hashlib.sha256(str(i).encode()).hexdigest(), "click_crop" if i % 2 else "thumbnail",
                 "image/png", 8, 8, bytes([i % 251]) * (300 + i % 3000), 1_000 + i) for i in range(blobs)]
        raw.executemany("INSERT INTO blobs VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        raw.execute("INSERT INTO snapshots(id, ts_ms, utc_offset_min, tz_name, monitor, trigger, app, screenshot) "
                    "VALUES (1, 1000, 0, 'UTC', 0, 'focus', 'gedit', ?)", (rows[0][0],))
        raw.execute("INSERT INTO input_events(id, ts_ms, end_ms, monitor, kind, count, crop) "
                    "VALUES (1, 1000, 1000, 0, 'click', 1, ?)", (rows[1][0],))
        raw.execute("INSERT INTO click_evidence(input_id, kind, blob, x, y, width, height, ratio_x, ratio_y) "
                    "VALUES (1, 'target', ?, 0, 0, 8, 8, 0.5, 0.5)", (rows[1][0],))
    raw.close()
    return rows


def test_migration_6_rebuilds_a_small_store_keeping_every_image_and_every_key(tmp_path):
    db = tmp_path / "v5.sqlite3"
    rows = version_5_store(db, 300)
    revisions = open_readonly(db).execute("SELECT * FROM day_revisions").fetchall()
    exported, images = read_back(db, rows)
    connection = open_store(db)
    assert connection.pragma("user_version") == SCHEMA_VERSION == 6
    assert layout(connection) == "rowid"
    assert connection.execute("SELECT sha256, kind, media_type, width, height, data, created_ms FROM blobs "
                              "ORDER BY created_ms").fetchall() == rows
    assert connection.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'blobs' OR name LIKE 'blobs%' "
                              "ORDER BY name").fetchall() == [
        ("blobs",), ("sqlite_autoindex_blobs_1",)]
    assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    assert int(connection.pragma("foreign_keys")) == 1 and int(connection.pragma("defer_foreign_keys")) == 0
    # the rows naming images still name them; the keys still hold
    assert connection.execute("SELECT b.created_ms FROM snapshots s JOIN blobs b ON b.sha256 = s.screenshot").get \
        == 1_000
    with pytest.raises(apsw.ConstraintError):
        connection.execute("INSERT INTO click_evidence(input_id, kind, blob, x, y, width, height, ratio_x, "
                           "ratio_y) VALUES (1, 'wide', ?, 0, 0, 8, 8, 0.5, 0.5)", ("f" * 64,))
    # migration 5's revision triggers are all there, and no day moved
    names = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert {name for name, _ in TRIGGERS} <= names
    assert connection.execute("SELECT * FROM day_revisions").fetchall() == revisions
    connection.close()
    assert read_back(db, rows) == (exported, images)        # export and the web view read the same


def read_back(db, rows):
    """What export (with images) and the web view's image reader give for the store's images."""
    from core.store.export import export_rows
    from core.store.images import read_image

    connection = open_readonly(db)
    try:
        exported = [row for row in export_rows(connection, 0, 10**13, images=True) if row["table"] == "blobs"]
    finally:
        connection.close()
    assert exported
    return exported, [read_image(db, row[0]) for row in rows]


def test_migration_6_leaves_a_large_store_as_it_is_and_everything_works_on_it(tmp_path):
    db = tmp_path / "v5.sqlite3"
    rows = version_5_store(db, REBUILD_AT_MOST + 1)
    connection = open_store(db)
    assert connection.pragma("user_version") == SCHEMA_VERSION
    assert layout(connection) == "without_rowid"
    assert connection.execute("SELECT count(*), sum(length(data)) FROM blobs").fetchall() == [
        (len(rows), sum(len(row[5]) for row in rows))]
    connection.close()
    writer = StoreWriter(db, commit_interval=None)
    crop = crop_variants(screen(), 400, 300, (100, 100, 600, 450))[2]
    for _ in range(2):
        writer.submit(BlobRow(crop.sha256, "click_crop", MEDIA_TYPE, crop.width, crop.height, crop.data, 9))
    assert writer.flush() and writer.close()
    assert open_readonly(db).execute("SELECT count(*) FROM blobs WHERE sha256 = ?", (crop.sha256,)).get == 1


def test_a_migration_6_interrupted_leaves_the_store_at_version_5_with_its_images(tmp_path):
    """Forward-only and all-or-nothing: the rebuild runs in the migration's
    transaction, so a failure in it changes nothing and the next start
    tries again."""
    db = tmp_path / "v5.sqlite3"
    rows = version_5_store(db, 20)
    raw = apsw.Connection(str(db))
    raw.pragma("foreign_keys", 1)
    raw.execute("CREATE TABLE blobs_moving(x)")    # the rebuild's scratch name, taken: it fails midway
    with pytest.raises(apsw.SQLError):
        migrate(raw, db)
    raw.execute("DROP TABLE blobs_moving")
    assert raw.pragma("user_version") == 5 and layout(raw) == "without_rowid"
    assert raw.execute("SELECT count(*) FROM blobs").get == len(rows)
    assert migrate(raw, db) == 6 and layout(raw) == "rowid"
    assert raw.execute("SELECT count(*) FROM blobs").get == len(rows)
    raw.close()
