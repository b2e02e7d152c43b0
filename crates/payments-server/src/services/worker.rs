//! A background worker's handle (the webhook dispatcher, the chain workers): stops it when told, and
//! aborts it when dropped, so a test server that goes away leaves nothing running.

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Stops the worker when told; dropping it stops it too.
#[derive(Debug)]
pub(crate) struct WorkerHandle {
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl WorkerHandle {
    /// Spawns `run`, which must finish soon after `stopped` resolves.
    pub(crate) fn spawn<F, Fut>(run: F) -> WorkerHandle
    where
        F: FnOnce(oneshot::Receiver<()>) -> Fut,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let (stop, stopped) = oneshot::channel::<()>();
        WorkerHandle {
            stop: Some(stop),
            task: Some(tokio::spawn(run(stopped))),
        }
    }

    /// Asks the worker to stop and waits for it. Work cut short is picked up again after a restart.
    pub(crate) async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            stop.send(()).ok();
        }
        if let Some(task) = self.task.take() {
            task.await.ok();
        }
    }
}

impl Drop for WorkerHandle {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}
