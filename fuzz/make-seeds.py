#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the fuzz seed corpus: small profiler DBs (page_size 512) in the
torch_npu schema, each covering one loader path. Usage: make-seeds.py DIR"""
import os
import shutil
import sqlite3
import struct
import sys
import tempfile

WAL_MARK = b"AFG-WAL:"
API = ("CREATE TABLE PYTORCH_API (startNs {t}, endNs {t}, globalTid INTEGER, connectionId INTEGER,"
       " name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER,"
       " inputShapes INTEGER, callchainId INTEGER{type})")
ENUM = ("CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);"
        "INSERT INTO ENUM_API_TYPE VALUES (5000,'runtime'),(20000,'acl'),(50001,'op'),"
        "(50002,'queue'),(50003,'trace'),(50004,'mstx');")
GTID = (7 << 32) | 9


def rows_nested(depth=4, tid=GTID):
    out = []
    for d in range(depth):
        out.append((str(100 + d), str(1000 - d), tid, 1 + d % 3, 50001))
    out.append(("2000", "2100", tid + 1, 2, 50003))
    out.append(("2000", "2100", tid, 4, 50004))
    return out


def make(path, rows, time_type="TEXT", with_type=True, enum=True, names=None, extra="", wal=False):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA page_size=512")
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT)")
    if enum:
        db.executescript(ENUM)
    db.execute(API.format(t=time_type, type=", type INTEGER" if with_type else ""))
    names = names or ["aten::mm", "ProfilerStep#1", "torch/nn/module.py(1): forward", "mstx"]
    db.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", list(enumerate(names, 1)))
    for r in rows:
        if with_type:
            db.execute("INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type)"
                       " VALUES (?,?,?,?,?)", r)
        else:
            db.execute("INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name)"
                       " VALUES (?,?,?,?)", r[:4])
    if extra:
        db.executescript(extra)
    if wal:
        # Copy while the writer is open: the rows live only in the -wal.
        data = open(path, "rb").read() + WAL_MARK + open(path + "-wal", "rb").read()
        db.close()
        return data
    db.close()
    return open(path, "rb").read()


def varint(v):
    """SQLite's varint: 7 bits a byte, high bit first, 8 bits in a ninth."""
    if v >= 1 << 56:
        out = [v & 0xff]
        v >>= 8
        for _ in range(8):
            out.append((v & 0x7f) | 0x80)
            v >>= 7
        return bytes(reversed(out))
    out = [v & 0x7f]
    v >>= 7
    while v:
        out.append((v & 0x7f) | 0x80)
        v >>= 7
    return bytes(reversed(out))


def read_varint(b, at):
    v = 0
    for i in range(8):
        v = (v << 7) | (b[at + i] & 0x7f)
        if b[at + i] < 0x80:
            return v, i + 1
    return (v << 8) | b[at + 8], 9


def root_page(path, table):
    db = sqlite3.connect(path)
    root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = ?", (table,)).fetchone()[0]
    db.close()
    return root


def pages_of(path, table, kind):
    db = sqlite3.connect(path)
    try:
        return [r[0] for r in db.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ?"
                                         " ORDER BY pageno", (table, kind))]
    finally:
        db.close()


def api_with_extra(p, rows, blob_bytes):
    """PYTORCH_API rows that carry a long last column no reader asks for."""
    make(p, rows, time_type="INTEGER")
    db = sqlite3.connect(p, isolation_level=None)
    db.execute("ALTER TABLE PYTORCH_API ADD COLUMN extra BLOB")
    db.execute("UPDATE PYTORCH_API SET extra = zeroblob(?)", (blob_bytes,))
    db.close()


def local_size(usable, payload):
    """How much of a table leaf cell's payload stays on its page."""
    min_local, max_local = (usable - 12) * 32 // 255 - 23, usable - 35
    k = min_local + (payload - min_local) % (usable - 4)
    return payload if payload <= max_local else k if k <= max_local else min_local


def looped_extra(p):
    """The extra column claims ~1 MB (3-byte varints kept) and its first
    overflow page points to itself: a reader that copies whole payloads
    loops over it; one that stops at the last column it needs never sees it."""
    api_with_extra(p, rows_nested(depth=1), 16400)
    data = bytearray(open(p, "rb").read())
    size = 512
    usable = size
    for pgno in pages_of(p, "PYTORCH_API", "leaf"):
        base = (pgno - 1) * size
        hoff = 100 if pgno == 1 else 0
        n_cells = struct.unpack(">H", data[base + hoff + 3:base + hoff + 5])[0]
        for c in range(n_cells):
            at = base + struct.unpack(">H", data[base + hoff + 8 + 2 * c:base + hoff + 10 + 2 * c])[0]
            payload, n = read_varint(data, at)
            _, m = read_varint(data, at + n)
            if n != 3:
                continue
            rec = at + n + m
            header, h = read_varint(data, rec)
            col = rec + h
            while col < rec + header:
                t, w = read_varint(data, col)
                if t >= 12 and t % 2 == 0 and w == 3:
                    # Both varints keep their 3 bytes: under 2**21.
                    k = ((1 << 21) - 1 - t) // (2 * (usable - 4))
                    data[col:col + 3] = varint(t + 2 * k * (usable - 4))
                    data[at:at + 3] = varint(payload + k * (usable - 4))
                col += w
            local = local_size(usable, payload)
            first = struct.unpack(">I", data[rec + local:rec + local + 4])[0]
            data[(first - 1) * size:(first - 1) * size + 4] = struct.pack(">I", first)
    return bytes(data)


def covering_index(p):
    """Indexes that cover the columns read: SQLite would walk them in their
    order without ORDER BY rowid; the direct reader walks rowids."""
    rows = [(str(300 - 10 * i), str(400 - 5 * i), GTID + (i % 2), 1 + i % 3, 50001) for i in range(12)]
    make(p, rows, extra="CREATE INDEX api_cover ON PYTORCH_API (globalTid, startNs, endNs, name, type, connectionId);")
    db = sqlite3.connect(p, isolation_level=None)
    db.executescript("ALTER TABLE STRING_IDS RENAME TO OLD; CREATE TABLE STRING_IDS (id INTEGER, value TEXT);"
                     "INSERT INTO STRING_IDS SELECT * FROM OLD ORDER BY id DESC; DROP TABLE OLD;"
                     "INSERT INTO STRING_IDS VALUES (1, 'a duplicate id'), (2, 'aaa');"
                     "CREATE INDEX ids_cover ON STRING_IDS (id, value);")
    db.close()
    return open(p, "rb").read()


def widths_and_floats(p):
    """Times of every integer width (4, 6 and 8 bytes), REAL columns holding
    whole and fractional floats, and one NaN patched into the file (SQLite
    stores NULL when asked to store a NaN)."""
    big = [1 << 20, 1 << 31, 1 << 40, 1 << 47, 1 << 55, (1 << 62) + 12345]
    rows = [(b, b + 100 + i, GTID, 1 + i % 3, 50001) for i, b in enumerate(big)]
    make(p, rows, time_type="INTEGER")
    db = sqlite3.connect(p, isolation_level=None)
    db.executescript("CREATE TABLE R (startNs REAL, endNs DOUBLE, globalTid INTEGER, name INTEGER, type INTEGER);"
                     "INSERT INTO R SELECT startNs, endNs, globalTid, name, type FROM PYTORCH_API;"
                     "INSERT INTO R VALUES (10.0, 20.5, %d, 1, 50001), (1.2345e300, 40, %d, 2, 50001),"
                     " (5, 9, %d, 3, 50001);"
                     "DROP TABLE PYTORCH_API; ALTER TABLE R RENAME TO PYTORCH_API;" % (GTID, GTID, GTID))
    db.close()
    data = open(p, "rb").read()
    return data.replace(struct.pack(">d", 1.2345e300), struct.pack(">Q", 0x7ff8000000000001))


def many_rows(p, n):
    return make(p, [(i * 10, i * 10 + 5 + i % 7, GTID + i % 3, 1 + i % 4, 50001) for i in range(n)],
                time_type="INTEGER")


def interior(cells, right):
    """A table interior page of 512 bytes: (left child, key) cells, then the right-most child."""
    body = b"".join(struct.pack(">I", child) + varint(key) for child, key in cells)
    start = 512 - len(body)
    ptrs, at = b"", start
    for child, key in cells:
        ptrs += struct.pack(">H", at)
        at += 4 + len(varint(key))
    head = bytes([5, 0, 0]) + struct.pack(">HH", len(cells), start) + b"\0" + struct.pack(">I", right)
    page = head + ptrs
    return page + bytes(start - len(page)) + body


def leaf(cells):
    body = b"".join(cells)
    start = 512 - len(body)
    ptrs, at = b"", start
    for cell in cells:
        ptrs += struct.pack(">H", at)
        at += len(cell)
    page = bytes([13, 0, 0]) + struct.pack(">HH", len(cells), start) + b"\0" + ptrs
    return page + bytes(start - len(page)) + body


def deep_chain(p, depth):
    """PYTORCH_API's root made a chain of @depth interior pages, each with
    one cell (the next page) and a right-most leaf of one row: SQLite and
    the direct reader both stop at a depth of 20."""
    make(p, rows_nested(), time_type="INTEGER")
    data = bytearray(open(p, "rb").read())
    root = root_page(p, "PYTORCH_API")
    old = bytes(data[(root - 1) * 512:root * 512])
    n_cells = struct.unpack(">H", old[3:5])[0]
    first = struct.unpack(">H", old[8:10])[0]
    payload, n = read_varint(old, first)
    _, m = read_varint(old, first + n)
    record = old[first + n + m:first + n + m + payload]
    n_pages = len(data) // 512
    data_leaf = n_pages + 1
    pages = {data_leaf: old}
    chain = [root] + [n_pages + 2 + i for i in range(depth - 1)]
    for level, pgno in enumerate(chain):
        below = chain[level + 1] if level + 1 < len(chain) else data_leaf
        side = n_pages + 1 + depth + level
        pages[side] = leaf([varint(payload) + varint(n_cells + depth - level) + record])
        pages[pgno] = interior([(below, n_cells + depth - level - 1)], side)
    total = max(pages)
    data += bytes((total - n_pages) * 512)
    for pgno, page in pages.items():
        data[(pgno - 1) * 512:pgno * 512] = page
    data[28:32] = struct.pack(">I", total)
    return bytes(data)


DEVICE = ("INSERT INTO STRING_IDS VALUES (10,'AI_CORE'),(11,'Notify Wait'),(12,'KERNEL_AIVEC'),"
          "(13,'MatMul_1'),(14,'hcom_allReduce__1_0_1'),(15,'group0'),(16,'EVENT_RECORD');"
          "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER,"
          " globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER,"
          " taskId INTEGER, modelId INTEGER);"
          "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
          "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER PRIMARY KEY, taskType INTEGER);"
          "CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId INTEGER,"
          " groupName INTEGER, opId INTEGER PRIMARY KEY, opType INTEGER);"
          "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);")


def device(times):
    """TASK, CONNECTION_IDS, COMPUTE_TASK_INFO and COMMUNICATION_OP rows
    around @times (start, end pairs): a kernel, a collective with its
    container and wait tasks, an unlinked event."""
    (a, b), (c, d), (e, f) = times
    return (DEVICE +
            f"UPDATE PYTORCH_API SET connectionId = 1 WHERE rowid = 1;"
            f"UPDATE PYTORCH_API SET connectionId = 2 WHERE rowid = 2;"
            f"INSERT INTO CONNECTION_IDS VALUES (1, 1), (2, 2);"
            f"INSERT INTO TASK VALUES ({a}, {b}, 0, 1, 100, 1, 12, 0, 2, 1, 0),"
            f" ({c}, {d}, 0, 2, 101, 1, 10, 0, 4, 2, 0), ({c}, {d}, 0, 2, 102, 1, 11, 0, 4, 3, 0),"
            f" ({e}, {f}, 0, NULL, 103, 1, 16, 0, 3, 4, 0);"
            f"INSERT INTO COMPUTE_TASK_INFO VALUES (13, 100, 12);"
            f"INSERT INTO COMMUNICATION_OP VALUES (14, {c}, {d}, 2, 15, 1, 14);")


def seeds(tmp):
    p = os.path.join(tmp, "s.db")

    def fresh():
        for suffix in ("", "-wal", "-shm", "-journal"):
            if os.path.exists(p + suffix):
                os.unlink(p + suffix)
        return p

    yield "basic", make(fresh(), rows_nested())
    yield "integer-time", make(fresh(), [(int(a), int(b), c, d, e) for a, b, c, d, e in rows_nested()],
                               time_type="INTEGER")
    yield "no-type", make(fresh(), rows_nested(), with_type=False)
    yield "no-enum", make(fresh(), rows_nested(), enum=False)
    yield "garbage", make(fresh(), [(None, "x", "tid", None, "op"), ("9223372036854775808", "1", 1, 1, 50001),
                                    (b"\x00\xff", 3.5, GTID, 99, 50001), ("-5", "-1", GTID, 1, 50001),
                                    ("10", "5", GTID, 1, 50001)])
    yield "overlap", make(fresh(), [("0", "100", GTID, 1, 50001), ("50", "150", GTID, 2, 50001),
                                    ("0", "100", GTID, 2, 50001), ("10", "20", GTID, 1, 50002)])
    yield "deep", make(fresh(), [(i, 3000 - i, 1, 1 + i % 2, 50001) for i in range(1010)],
                       time_type="INTEGER")
    yield "threads", make(fresh(), [(str(i), str(i + 10), (i << 32) | i, 1, 50001) for i in range(60)])
    yield "odd-names", make(fresh(), rows_nested(), names=["</script><!--", "\u202e\x01\"'", "x" * 600, None])
    yield "wal", make(fresh(), rows_nested(), wal=True)
    yield "trigger", make(fresh(), rows_nested(),
                          extra="CREATE TRIGGER t AFTER INSERT ON PYTORCH_API BEGIN SELECT 1; END;")
    yield "view", make(fresh(), [], extra="CREATE VIEW v AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL"
                                          " SELECT x+1 FROM c) SELECT x FROM c;")
    # For the differential fuzzer (two readers, one answer).
    yield "looped-extra-column", looped_extra(fresh())
    yield "covering-index", covering_index(fresh())
    yield "widths-floats-nan", widths_and_floats(fresh())
    yield "multi-level", many_rows(fresh(), 1500)
    basic = make(fresh(), rows_nested())
    yield "short-read", basic[:len(basic) - 300]
    yield "page-count-past-end", basic[:28] + struct.pack(">I", len(basic) // 512 + 3) + basic[32:]
    yield "usable-472", basic[:20] + bytes([40]) + basic[21:]
    yield "depth-19", deep_chain(fresh(), 19)
    yield "depth-21", deep_chain(fresh(), 21)
    # The device side: times of a real profile, and as far apart as
    # int64 goes (steps from -2^63 + 1 to 2^63 - 1).
    host = ["aten::mm", "aten::add", "torch/nn/module.py(1): forward", "mstx"]
    yield "device", make(fresh(), rows_nested(), names=host, extra=device(((110, 200), (300, 900), (950, 990)))
                         + "INSERT INTO STEP_TIME VALUES (1, 100, 500), (2, 500, 1000);")
    yield "device-extreme-times", make(fresh(), rows_nested(), names=host,
                                       extra=device(((-9223372036854775807, -9223372036854775000),
                                                     (0, 9223372036854775807), (-5, 5)))
                                       + "INSERT INTO STEP_TIME VALUES (1, -9223372036854775807, 0),"
                                         " (2, 0, 9223372036854775807);")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp()
    try:
        for name, data in seeds(tmp):
            with open(os.path.join(out, "seed-" + name), "wb") as f:
                f.write(data)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
