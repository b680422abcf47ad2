//! Keeps the memory a frame frees in the process instead of handing it
//! back to the kernel, so the next frame does not page-fault it in again.
//!
//! Mesa's software rasteriser (llvmpipe, under lavapipe) bins every frame's
//! triangles into scene memory it allocates and frees per frame, in blocks
//! large enough that glibc serves them with `mmap` and returns them with
//! `munmap`, or trims them off the top of the heap. Each frame then pays
//! the kernel to zero and map those pages again: on pyramid 100 at
//! 1280x720 (5050 cubes), about 1.9 ms of kernel time per frame on the
//! thread that bins, against 0.8 ms with the settings below (perf,
//! cpu-clock, 100 frames). Raising glibc's mmap threshold to its maximum
//! and its trim threshold far above a frame's needs makes those blocks
//! heap memory that stays mapped and is reused.
//!
//! This is a process-wide allocator setting, so only the binary makes it,
//! once at start, before any GPU device exists; the library leaves the
//! allocator alone. Elsewhere than Linux with glibc it does nothing.

/// glibc's largest mmap threshold on 64-bit targets (`HEAP_MAX_SIZE / 2`):
/// requests below it come from the heap.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 32 << 20;

/// Free memory at the top of the heap that glibc keeps rather than trims.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: libc::c_int = 1 << 30;

/// Applies the settings of the file header. A setting glibc refuses leaves
/// its default, which is only slower, so failures are logged, not raised.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    for (name, param, value) in [
        ("M_MMAP_THRESHOLD", libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        ("M_TRIM_THRESHOLD", libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD),
    ] {
        // SAFETY: mallopt only changes allocator parameters; it is called
        // at start, before any thread of ours allocates concurrently.
        #[allow(unsafe_code)]
        if unsafe { libc::mallopt(param, value) } != 1 {
            log::warn!("glibc refused mallopt({name}, {value}); keeping its default");
        }
    }
}
