#pragma once

#include "base/CancelFlag.h"
#include "trace/Trace.h"

#include <string>

namespace ovs {

// Imports an Nsight Systems report exported as SQLite (nsys export --type
// sqlite), schema 2.x (2022 and before) and 3.x (2023 on), read by table and
// column names. Each process with CUDA work becomes a run, made by the same
// builder as a run of `overlapscope-cli profile` (profile/ProcessRunBuilder)
// from the rows turned into its records: copies, memsets and kernels on
// stream lanes, the CUDA calls we trace on host-thread lanes, joined by
// correlation id, synchronizations naming what each wait waited for, the
// device from TARGET_INFO_GPU, the stream kinds from TARGET_INFO_CUDA_STREAM,
// and NVTX push/pop and start/end ranges as the run's regions. What it skips
// is counted in the summary. The mapping: docs/trace-format.md ("Nsight
// Systems reports"). Rows are streamed: memory grows with the ops kept.
// Throws NsightImportError (one line, naming the export's version where it
// is known) on anything it cannot read: a database that is no Nsight
// export, a missing table or column, a view or virtual table where a table
// belongs, a value over SqliteDatabase::kMaxValueBytes, a read past its
// work budget, a damaged or truncated file. Nothing of the file runs (see
// SqliteDatabase). `cancel`, raised from another thread, ends the read
// with RunCancelled.
struct NsightSqliteImport {
    Trace trace;
    // "imported from Nsight Systems 2022.2.1.31, export schema 2.9.1: 1 run, ...; skipped ..."
    std::string summary;

    static NsightSqliteImport read(const std::string& path, const CancelFlag* cancel = nullptr);
};

} // namespace ovs
