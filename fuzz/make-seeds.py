#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the fuzz seed corpus: small profiler DBs (page_size 512) in the
torch_npu schema, each covering one loader path. Usage: make-seeds.py DIR"""
import os
import shutil
import sqlite3
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
