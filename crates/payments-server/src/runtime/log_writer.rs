//! The log sink: each line is appended to a shared buffer, and one thread writes the buffer out
//! [`FLUSH_EVERY`] after its first line, or as soon as it holds [`FLUSH_AT`] bytes; with nothing to write the
//! thread sleeps.
//!
//! Why not `tracing-appender`'s non-blocking writer: it hands every line to its thread through a channel
//! and writes whenever the channel runs empty, so under load each request cost a wake-up of that thread
//! (spinning in `sched_yield` first) and most of a `write(2)`: 0.7 writes and 0.45 yields per request,
//! about 10 µs of a `GET`'s 54 µs of server CPU (docs/benchmarks.md). Here a line costs a lock and a copy,
//! and lines go out in batches at most 50 ms late. Nothing is dropped: past [`MAX_PENDING`] bytes a logging
//! thread waits for the writer (back-pressure, as a full queue blocked before), and dropping the
//! [`BatchedLogGuard`] writes what is left.

use std::io::{self, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// How late a line may reach the sink.
const FLUSH_EVERY: Duration = Duration::from_millis(50);
/// A buffer this full is written without waiting for the tick.
const FLUSH_AT: usize = 64 * 1024;
/// Past this, logging threads wait for the writer.
const MAX_PENDING: usize = 4 * 1024 * 1024;

#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    closed: bool,
}

#[derive(Default)]
struct Shared {
    pending: Mutex<Pending>,
    /// Wakes the writer thread (buffer full, or closing).
    wake_writer: Condvar,
    /// Wakes logging threads waiting for room.
    drained: Condvar,
}

impl Shared {
    fn pending(&self) -> MutexGuard<'_, Pending> {
        // A panic while appending leaves at worst a partial line; the log stays usable.
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The `MakeWriter` handed to `tracing-subscriber`: cheap to clone, one per line.
#[derive(Clone)]
pub(crate) struct BatchedLog {
    shared: Arc<Shared>,
}

/// Keeps the writer thread; dropping it writes every line still buffered and stops the thread.
pub(crate) struct BatchedLogGuard {
    shared: Arc<Shared>,
    writer: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for BatchedLogGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchedLogGuard").finish_non_exhaustive()
    }
}

/// A batched log over `sink` and the guard of its writer thread.
///
/// # Errors
/// When the thread cannot be started.
pub(crate) fn batched_log(sink: impl Write + Send + 'static) -> io::Result<(BatchedLog, BatchedLogGuard)> {
    let shared = Arc::new(Shared::default());
    let for_writer = Arc::clone(&shared);
    let writer = std::thread::Builder::new()
        .name("payments-log".to_owned())
        .spawn(move || write_batches(&for_writer, sink))?;
    Ok((
        BatchedLog {
            shared: Arc::clone(&shared),
        },
        BatchedLogGuard {
            shared,
            writer: Some(writer),
        },
    ))
}

fn write_batches(shared: &Shared, mut sink: impl Write) {
    let mut batch = Vec::new();
    loop {
        let closed = {
            let mut pending = shared.pending();
            // Idle, the thread sleeps until a line comes (no tick while there is nothing to write).
            while pending.bytes.is_empty() && !pending.closed {
                pending = shared
                    .wake_writer
                    .wait(pending)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if !pending.closed && pending.bytes.len() < FLUSH_AT {
                pending = shared
                    .wake_writer
                    .wait_timeout(pending, FLUSH_EVERY)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
            std::mem::swap(&mut batch, &mut pending.bytes);
            pending.closed
        };
        shared.drained.notify_all();
        if !batch.is_empty() {
            // Nowhere to report a failing log sink; the lines are gone either way.
            let _ = sink.write_all(&batch).and_then(|()| sink.flush());
            batch.clear();
        }
        if closed {
            return;
        }
    }
}

impl Drop for BatchedLogGuard {
    fn drop(&mut self) {
        self.shared.pending().closed = true;
        self.shared.wake_writer.notify_one();
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

impl Write for BatchedLog {
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        let mut pending = self.shared.pending();
        while pending.bytes.len() >= MAX_PENDING && !pending.closed {
            self.shared.wake_writer.notify_one();
            pending = self
                .shared
                .drained
                .wait(pending)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let was_empty = pending.bytes.is_empty();
        pending.bytes.extend_from_slice(line);
        // The first line wakes the idle writer, which then waits out the tick; a full buffer goes at once.
        if was_empty || pending.bytes.len() >= FLUSH_AT {
            self.shared.wake_writer.notify_one();
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for BatchedLog {
    type Writer = BatchedLog;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink the test reads back.
    #[derive(Clone, Default)]
    struct Collected(Arc<Mutex<Vec<u8>>>);

    impl Write for Collected {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_line_of_many_threads_reaches_the_sink_once_in_each_threads_order_by_the_guards_drop() {
        let sink = Collected::default();
        let (log, guard) = batched_log(sink.clone()).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|thread| {
                let mut log = log.clone();
                std::thread::spawn(move || {
                    for line in 0..20_000 {
                        log.write_all(format!("t{thread} {line}\n").as_bytes()).unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        drop(guard);

        let written = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        for thread in 0..4 {
            let lines: Vec<usize> = written
                .lines()
                .filter_map(|line| line.strip_prefix(&format!("t{thread} ")))
                .map(|n| n.parse().unwrap())
                .collect();
            assert_eq!(lines, (0..20_000).collect::<Vec<_>>(), "thread {thread}");
        }
    }

    #[test]
    fn a_line_reaches_the_sink_within_the_tick_without_a_drop() {
        let sink = Collected::default();
        let (mut log, _guard) = batched_log(sink.clone()).unwrap();
        log.write_all(b"one line\n").unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while sink.0.lock().unwrap().is_empty() {
            assert!(std::time::Instant::now() < deadline, "the line was not written");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(sink.0.lock().unwrap().as_slice(), b"one line\n");
    }
}
