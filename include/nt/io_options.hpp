// nt/io_options.hpp: how ntensor writes files (save_npy, save_npz, zarr stores).
//
//     nt::save_npy("mask.npy", mask);                                // durable
//     nt::save_npy("scratch.npy", tmp, nt::io_options{.durable = false});
//
// Every file ntensor writes appears complete or not at all: the bytes go to a hidden
// temporary file beside the target (".<name>.tmp-<host>-<pid>-XXXXXX"), renamed over
// it at the end. A failed write leaves the old file as it was. A writer killed mid-way
// leaves its temporary behind; the next write of a process into that folder removes
// such files of writers on this machine that no longer run.
#pragma once

namespace nt {

/// The options every writer of files takes.
struct io_options {
    /// Survive a power loss or an OS crash: the temporary file is synced to the disk
    /// (fsync) before it is renamed over the target, and the folder after the rename,
    /// as SQLite and other careful writers do. Without it a crash shortly after a save
    /// can leave the target empty or holding a mix of old and new bytes. false skips
    /// the two syncs per file (scratch data, or many small files on a slow disk).
    bool durable = true;
};

}  // namespace nt
