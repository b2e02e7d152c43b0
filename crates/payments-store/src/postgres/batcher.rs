//! Natural batching of one kind of statement across concurrent requests: a request joins a queue, and
//! whenever fewer than `in_flight` batches are running, everything queued so far (up to `largest`) goes
//! out together as one batch, on a task of its own. Nothing waits for a timer: alone on an idle server a
//! request is a batch of one and goes out at once; under load, requests that arrive while earlier batches
//! run share the next one. One statement or one commit then serves many requests, which is where the
//! database and the connection's wake-ups spend their time (docs/benchmarks.md).
//!
//! Each batch starts after every request in it arrived, so it sees every commit that finished before
//! any of its requests was made, exactly as a statement of the request's own would.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, PoisonError};

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio::sync::oneshot;

/// How many batches run at once, and how many requests one batch takes at most.
#[derive(Debug, Clone, Copy)]
pub(super) struct BatchLimits {
    pub(super) in_flight: usize,
    pub(super) largest: usize,
}

/// What a batch gives one of its requests: its answer, or nothing when the batch as a whole failed
/// before anything of it took effect (the request then runs on its own, see [`Batcher::submit`]).
pub(super) type BatchAnswer<A> = Option<A>;

/// A request waiting in the queue, and where its answer goes.
struct Waiting<R, A> {
    request: R,
    answer: oneshot::Sender<BatchAnswer<A>>,
}

/// Runs one batch: every request's answer, in order, or `None` for all of them.
type RunBatch<R, A> = dyn Fn(Vec<R>) -> BoxFuture<'static, Option<Vec<A>>> + Send + Sync;

/// The queue of one kind of statement; cloning shares it.
pub(super) struct Batcher<R, A> {
    shared: Arc<Shared<R, A>>,
}

impl<R, A> Clone for Batcher<R, A> {
    fn clone(&self) -> Self {
        Batcher {
            shared: Arc::clone(&self.shared),
        }
    }
}

struct Shared<R, A> {
    limits: BatchLimits,
    run: Box<RunBatch<R, A>>,
    state: Mutex<Queue<R, A>>,
}

/// The requests waiting, and how many batches are running.
struct Queue<R, A> {
    waiting: Vec<Waiting<R, A>>,
    running: usize,
}

impl<R, A> Queue<R, A> {
    /// The next batch, when one may start: the oldest waiting requests, as many as one batch takes.
    fn start_batch(&mut self, limits: BatchLimits) -> Option<Vec<Waiting<R, A>>> {
        if self.waiting.is_empty() || self.running >= limits.in_flight.max(1) {
            return None;
        }
        self.running += 1;
        let taken = self.waiting.len().min(limits.largest.max(1));
        Some(self.waiting.drain(..taken).collect())
    }
}

impl<R: Send + 'static, A: Send + 'static> Batcher<R, A> {
    /// A batcher that runs `run` for each batch. `run` answers every request of its batch, in order, or
    /// `None` for all of them when the batch failed as a whole.
    pub(super) fn new<F, Fut>(limits: BatchLimits, run: F) -> Self
    where
        F: Fn(Vec<R>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Option<Vec<A>>> + Send + 'static,
    {
        Batcher {
            shared: Arc::new(Shared {
                limits,
                run: Box::new(move |requests| Box::pin(run(requests))),
                state: Mutex::new(Queue {
                    waiting: Vec::new(),
                    running: 0,
                }),
            }),
        }
    }

    /// The answer `request` got in its batch, or `None` when the batch failed as a whole: the caller then
    /// runs the request alone, which gives it its own answer or its own error, exactly as without
    /// batching.
    ///
    /// A request that finds a batch slot free starts a batch on a task of its own (on the caller's
    /// runtime; there is no background task), so a caller that goes away never cuts a batch short: an
    /// insert it shares with others still commits or fails as a whole.
    pub(super) async fn submit(&self, request: R) -> BatchAnswer<A> {
        let (answer, answered) = oneshot::channel();
        let batch = {
            let mut queue = self.shared.state.lock().unwrap_or_else(PoisonError::into_inner);
            queue.waiting.push(Waiting { request, answer });
            queue.start_batch(self.shared.limits)
        };
        if let Some(batch) = batch {
            tokio::spawn(Arc::clone(&self.shared).run_batches(batch));
        }
        answered.await.ok().flatten()
    }
}

impl<R: Send + 'static, A: Send + 'static> Shared<R, A> {
    /// Runs `batch`, then whatever queued up meanwhile, until nothing waits. Requests that arrive while
    /// every slot is busy are what fills the next batch.
    async fn run_batches(self: Arc<Self>, mut batch: Vec<Waiting<R, A>>) {
        loop {
            let (requests, answers): (Vec<R>, Vec<_>) = batch
                .into_iter()
                .map(|entry| (entry.request, entry.answer))
                .unzip();
            // A runner that panics fails its batch only; the slot is given back below either way.
            let outcome = AssertUnwindSafe((self.run)(requests))
                .catch_unwind()
                .await
                .ok()
                .flatten();
            answer_all(answers, outcome);
            let next = {
                let mut queue = self.state.lock().unwrap_or_else(PoisonError::into_inner);
                queue.running = queue.running.saturating_sub(1);
                queue.start_batch(self.limits)
            };
            match next {
                Some(next) => batch = next,
                None => return,
            }
        }
    }
}

/// Sends each waiting request its answer; a request whose caller went away is skipped.
fn answer_all<A>(answers: Vec<oneshot::Sender<BatchAnswer<A>>>, outcome: Option<Vec<A>>) {
    match outcome {
        Some(results) if results.len() == answers.len() => {
            for (answer, result) in answers.into_iter().zip(results) {
                let _gone = answer.send(Some(result));
            }
        }
        _ => {
            for answer in answers {
                let _gone = answer.send(None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::Duration;

    fn limits(in_flight: usize, largest: usize) -> BatchLimits {
        BatchLimits { in_flight, largest }
    }

    /// Submits `0..count` at the same time, each from its own task; the answers in order.
    async fn submit_all(batcher: &Batcher<u32, u32>, count: u32) -> Vec<BatchAnswer<u32>> {
        let calls: Vec<_> = (0..count)
            .map(|n| {
                let batcher = batcher.clone();
                tokio::spawn(async move { batcher.submit(n).await })
            })
            .collect();
        let mut answers = Vec::new();
        for call in calls {
            answers.push(call.await.unwrap());
        }
        answers
    }

    #[tokio::test]
    async fn a_lone_request_is_answered_at_once_as_a_batch_of_one() {
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&sizes);
        let batcher = Batcher::new(limits(2, 8), move |requests: Vec<u32>| {
            seen.lock().unwrap().push(requests.len());
            async move { Some(requests.into_iter().map(|n| n * 10).collect()) }
        });
        assert_eq!(batcher.submit(4).await, Some(40));
        assert_eq!(*sizes.lock().unwrap(), vec![1]);
    }

    #[tokio::test]
    async fn requests_arriving_while_a_batch_runs_share_the_next_and_each_gets_its_own_answer() {
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&sizes);
        let batcher = Batcher::new(limits(1, 64), move |requests: Vec<u32>| {
            seen.lock().unwrap().push(requests.len());
            async move {
                tokio::time::sleep(Duration::from_millis(20)).await;
                Some(requests.into_iter().map(|n| n + 1000).collect())
            }
        });
        let answers = submit_all(&batcher, 40).await;
        let expected: Vec<_> = (0..40).map(|n| Some(n + 1000)).collect();
        assert_eq!(answers, expected);
        let sizes = sizes.lock().unwrap();
        assert_eq!(sizes.iter().sum::<usize>(), 40);
        assert!(
            sizes.len() < 40,
            "40 concurrent requests went out in {} batches",
            sizes.len()
        );
    }

    #[tokio::test]
    async fn no_batch_takes_more_than_its_largest() {
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&sizes);
        let batcher = Batcher::new(limits(1, 5), move |requests: Vec<u32>| {
            seen.lock().unwrap().push(requests.len());
            async move {
                tokio::time::sleep(Duration::from_millis(5)).await;
                Some(requests)
            }
        });
        let answers = submit_all(&batcher, 23).await;
        assert!(answers.iter().all(Option::is_some));
        assert!(sizes.lock().unwrap().iter().all(|size| *size <= 5));
    }

    #[tokio::test]
    async fn a_failed_batch_or_a_wrong_count_of_answers_sends_every_request_back_to_run_alone() {
        let failing = Batcher::new(limits(1, 8), |_requests: Vec<u32>| async { None::<Vec<u32>> });
        assert_eq!(failing.submit(1).await, None);
        let short = Batcher::new(limits(1, 8), |_requests: Vec<u32>| async {
            Some(Vec::<u32>::new())
        });
        assert_eq!(short.submit(1).await, None);
    }

    #[tokio::test]
    async fn a_batch_whose_runner_panics_answers_none_and_the_batcher_goes_on() {
        let batcher = Batcher::new(limits(1, 8), |requests: Vec<u32>| async move {
            assert!(!requests.contains(&13), "unlucky");
            Some(requests)
        });
        assert_eq!(batcher.submit(13).await, None);
        assert_eq!(batcher.submit(7).await, Some(7));
    }

    #[tokio::test]
    async fn a_batch_runs_to_its_end_when_the_request_that_started_it_goes_away() {
        let finished = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&finished);
        let batcher = Batcher::new(limits(1, 8), move |requests: Vec<u32>| {
            let seen = Arc::clone(&seen);
            async move {
                tokio::time::sleep(Duration::from_millis(30)).await;
                seen.lock().unwrap().extend(requests.iter().copied());
                Some(requests)
            }
        });
        let starter = {
            let batcher = batcher.clone();
            tokio::spawn(async move { batcher.submit(1).await })
        };
        tokio::time::sleep(Duration::from_millis(5)).await;
        starter.abort();
        assert!(starter.await.unwrap_err().is_cancelled());

        // The next request waits for the slot, which the abandoned batch gives back when it ends.
        assert_eq!(batcher.submit(2).await, Some(2));
        assert_eq!(*finished.lock().unwrap(), vec![1, 2]);
    }
}
