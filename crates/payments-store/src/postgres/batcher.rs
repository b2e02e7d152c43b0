//! Natural batching of one kind of statement across concurrent requests: a request joins a queue, and
//! whenever fewer than `in_flight` batches are running, everything queued so far (up to `largest`) goes
//! out together as one batch. Nothing waits for a timer: alone on an idle server a request is a batch of
//! one and goes out at once; under load, requests that arrive while earlier batches run share the next
//! one. One statement or one commit then serves many requests, which is where the database and the
//! connection's wake-ups spend their time (docs/benchmarks.md).
//!
//! Each batch starts after every request in it arrived, so it sees every commit that finished before
//! any of its requests was made, exactly as a statement of the request's own would.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::{Semaphore, mpsc, oneshot};

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

/// The queue of one kind of statement; cloning shares it.
pub(super) struct Batcher<R, A> {
    queue: mpsc::UnboundedSender<Waiting<R, A>>,
}

impl<R, A> Clone for Batcher<R, A> {
    fn clone(&self) -> Self {
        Batcher {
            queue: self.queue.clone(),
        }
    }
}

impl<R: Send + 'static, A: Send + 'static> Batcher<R, A> {
    /// Starts the task that forms batches and runs `run` for each on its own task. `run` answers every
    /// request of its batch, in order, or `None` for all of them when the batch failed as a whole. The
    /// task ends when the last clone of the batcher is dropped.
    ///
    /// The queue is unbounded because each entry is a request the server is serving, whose number the
    /// server already bounds.
    pub(super) fn start<F, Fut>(limits: BatchLimits, run: F) -> Self
    where
        F: Fn(Vec<R>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Option<Vec<A>>> + Send + 'static,
    {
        let (queue, mut waiting) = mpsc::unbounded_channel::<Waiting<R, A>>();
        let run = Arc::new(run);
        let running = Arc::new(Semaphore::new(limits.in_flight.max(1)));
        tokio::spawn(async move {
            while let Some(first) = waiting.recv().await {
                // Waiting here for a running batch to end is what lets the next one fill up.
                let Ok(slot) = Arc::clone(&running).acquire_owned().await else {
                    return;
                };
                let mut batch = vec![first];
                while batch.len() < limits.largest {
                    match waiting.try_recv() {
                        Ok(next) => batch.push(next),
                        Err(_) => break,
                    }
                }
                let run = Arc::clone(&run);
                tokio::spawn(async move {
                    let (requests, answers): (Vec<R>, Vec<_>) = batch
                        .into_iter()
                        .map(|entry| (entry.request, entry.answer))
                        .unzip();
                    let outcome = run(requests).await;
                    drop(slot);
                    answer_all(answers, outcome);
                });
            }
        });
        Batcher { queue }
    }

    /// The answer `request` got in its batch, or `None` when the batch failed as a whole or the batcher
    /// is gone (its runtime ended): the caller then runs the request alone, which gives it its own answer
    /// or its own error, exactly as without batching.
    pub(super) async fn submit(&self, request: R) -> BatchAnswer<A> {
        let (answer, answered) = oneshot::channel();
        self.queue.send(Waiting { request, answer }).ok()?;
        answered.await.ok().flatten()
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
        let batcher = Batcher::start(limits(2, 8), move |requests: Vec<u32>| {
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
        let batcher = Batcher::start(limits(1, 64), move |requests: Vec<u32>| {
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
        let batcher = Batcher::start(limits(1, 5), move |requests: Vec<u32>| {
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
        let failing = Batcher::start(limits(1, 8), |_requests: Vec<u32>| async { None::<Vec<u32>> });
        assert_eq!(failing.submit(1).await, None);
        let short = Batcher::start(limits(1, 8), |_requests: Vec<u32>| async {
            Some(Vec::<u32>::new())
        });
        assert_eq!(short.submit(1).await, None);
    }

    #[tokio::test]
    async fn a_batch_whose_runner_panics_answers_none_and_the_batcher_goes_on() {
        let batcher = Batcher::start(limits(1, 8), |requests: Vec<u32>| async move {
            assert!(!requests.contains(&13), "unlucky");
            Some(requests)
        });
        assert_eq!(batcher.submit(13).await, None);
        assert_eq!(batcher.submit(7).await, Some(7));
    }
}
