#!/usr/bin/env python3
"""Writes the seed corpus of fuzz/fuzz_nsight_report.cpp (tests/fuzz-corpus/nsight/):
small Nsight Systems reports, in the shape of tests/NsightReportWriter.h, with 512-byte
pages so that each stays a few KB (scripts/fuzz.sh gives the fuzzer inputs up to 64 KiB).
One of each schema (2.x, 3.x) that loads, and one of the refusals (a view in a table's
place), so that the fuzzer starts from both paths.

    scripts/make-nsight-fuzz-corpus.py
"""
import os
import sqlite3

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fuzz-corpus", "nsight")
PID = 4242
GLOBAL_PID = (1 << 48) | (PID << 24)


def report(name, schema, extra=""):
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(f"""
        PRAGMA page_size = 512;
        PRAGMA journal_mode = DELETE;
        CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
        CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
        CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER,
            smCount INTEGER, asyncEngines INTEGER, computeMajor INTEGER, computeMinor INTEGER);
        CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL,
            processId INTEGER NOT NULL, contextId INTEGER NOT NULL, priority INTEGER NOT NULL, flag INTEGER NOT NULL);
        CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
            contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
            bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);
        CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
            contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
            demangledName INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
            blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL);
        CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
            globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);
        CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL,
            contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
            syncType INTEGER NOT NULL, eventId INTEGER NOT NULL);
        CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, text TEXT,
            globalTid INTEGER, textId INTEGER);
        INSERT INTO StringIds VALUES (1, 'scale(float*, int)'), (2, 'cudaLaunchKernel_v7000'),
            (3, 'cudaMemcpyAsync_v3020'), (4, 'cudaStreamSynchronize_v3020'), (5, 'main');
        INSERT INTO PROCESSES VALUES ({GLOBAL_PID}, {PID}, '/opt/app/train');
        INSERT INTO ThreadNames VALUES (5, 10, {GLOBAL_PID | PID});
        INSERT INTO TARGET_INFO_GPU VALUES ({1 << 48}, 0, 'NVIDIA H200', 150000000000, 132, 3, 9, 0);
        INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (13, 0, 1, {PID}, 1, 0, {2 + (50 if schema >= 3 else 0)});
        INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
            (300, 310, {100 if schema >= 3 else 0}, {GLOBAL_PID | PID}, 3, 3, 0),
            (410, 420, {100 if schema >= 3 else 0}, {GLOBAL_PID | PID}, 4, 2, 0),
            (610, 700, {100 if schema >= 3 else 0}, {GLOBAL_PID | PID}, 7, 4, 0);
        INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES
            (320, 400, 0, 1, 13, 3, {GLOBAL_PID}, 1048576, {1 + (20 if schema >= 3 else 0)},
             {1 + (10 if schema >= 3 else 0)}, {2 + (10 if schema >= 3 else 0)});
        INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (430, 500, 0, 1, 13, 4, {GLOBAL_PID}, 1, 2, 1, 1, 256, 1, 1);
        INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES
            (610, 700, 1, 13, 7, {GLOBAL_PID}, {3 + (40 if schema >= 3 else 0)}, 4294967295);
        INSERT INTO NVTX_EVENTS VALUES (250, 650, {59 + (100 if schema >= 3 else 0)}, 'step', {GLOBAL_PID | PID}, NULL);
    """)
    if schema >= 3:
        db.executescript("""
            CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);
            INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2024.2.1.106'),
                ('EXPORT_SCHEMA_VERSION', '3.11.1');
            CREATE TABLE TARGET_INFO_CUDA_CONTEXT_INFO (nullStreamId INTEGER NOT NULL, hwId INTEGER NOT NULL,
                vmId INTEGER NOT NULL, processId INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL);
            INSERT INTO TARGET_INFO_CUDA_CONTEXT_INFO VALUES (7, 0, 1, 4242, 0, 1);
            CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT);
            INSERT INTO ENUM_CUDA_MEM_KIND VALUES (10, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', ''),
                (11, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', ''), (12, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', '');
            CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT);
            INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (21, 'CUDA_MEMCPY_KIND_HTOD', ''), (22, 'CUDA_MEMCPY_KIND_DTOH', '');
            CREATE TABLE ENUM_NSYS_EVENT_CLASS (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT);
            INSERT INTO ENUM_NSYS_EVENT_CLASS VALUES (100, 'TRACE_PROCESS_EVENT_CUDA_RUNTIME', '');
            CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT);
            INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (159, 'NvtxPushPopRange', '');
        """)
    else:
        db.executescript("""
            CREATE TABLE EXPORT_META_DATA (name TEXT, value TEXT);
            INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_PRODUCT_VERSION', '2022.2.1.31'), ('EXPORT_SCHEMA_VERSION', '2.9.1');
            CREATE TABLE TARGET_INFO_CUDA_NULL_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL,
                vmId INTEGER NOT NULL, processId INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL);
            INSERT INTO TARGET_INFO_CUDA_NULL_STREAM VALUES (7, 0, 1, 4242, 0, 1);
        """)
    db.executescript(extra)
    db.commit()
    db.execute("VACUUM")
    db.close()
    print(f"{path}: {os.path.getsize(path)} bytes")


os.makedirs(OUT, exist_ok=True)
report("schema-3.sqlite", 3)
report("schema-2.sqlite", 2)
report("view-in-place-of-kernels.sqlite", 3, """
    ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO kernel_rows;
    CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT kernel_rows.* FROM kernel_rows,
        (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r);
""")
