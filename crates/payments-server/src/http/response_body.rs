//! The body of every response: whole bytes (nearly every answer) or chunks sent as they are produced (the
//! ledger export), so an export of any size is never held in memory at once.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::{Body, Frame, SizeHint};
use tokio::sync::mpsc;

use crate::http::error::BoxError;

/// A response body.
#[derive(Debug)]
pub enum ResponseBody {
    Whole(Full<Bytes>),
    /// Chunks from a producer task; an `Err` chunk aborts the response (the client sees a broken transfer,
    /// never a short export that looks complete).
    Streamed(mpsc::Receiver<Result<Bytes, BoxError>>),
}

impl ResponseBody {
    /// A body streamed from what `producer` sends; it ends when every sender is dropped.
    pub(crate) fn channel(capacity: usize) -> (mpsc::Sender<Result<Bytes, BoxError>>, Self) {
        let (sender, receiver) = mpsc::channel(capacity);
        (sender, ResponseBody::Streamed(receiver))
    }
}

impl From<Bytes> for ResponseBody {
    fn from(bytes: Bytes) -> Self {
        ResponseBody::Whole(Full::new(bytes))
    }
}

impl From<Vec<u8>> for ResponseBody {
    fn from(bytes: Vec<u8>) -> Self {
        ResponseBody::from(Bytes::from(bytes))
    }
}

impl From<&'static str> for ResponseBody {
    fn from(text: &'static str) -> Self {
        ResponseBody::from(Bytes::from_static(text.as_bytes()))
    }
}

impl Body for ResponseBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            ResponseBody::Whole(whole) => Pin::new(whole)
                .poll_frame(cx)
                .map(|frame| frame.map(|frame| frame.map_err(|never| match never {}))),
            ResponseBody::Streamed(chunks) => chunks
                .poll_recv(cx)
                .map(|chunk| chunk.map(|chunk| chunk.map(Frame::data))),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            ResponseBody::Whole(whole) => whole.is_end_stream(),
            ResponseBody::Streamed(_) => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            ResponseBody::Whole(whole) => whole.size_hint(),
            ResponseBody::Streamed(_) => SizeHint::default(),
        }
    }
}
