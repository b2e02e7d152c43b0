//! A tiny HTTP/1.1 server that answers with scripted responses, for behaviour the real server cannot be
//! made to show on demand (a 429 on the first try only, a server that never answers).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// One scripted answer.
#[derive(Debug, Clone)]
pub(crate) enum Reply {
    /// Status and JSON body.
    Json(u16, String),
    /// Accept the request and never answer.
    Hang,
}

#[derive(Debug)]
pub(crate) struct ScriptedServer {
    pub(crate) base_url: String,
    requests: Arc<AtomicUsize>,
}

impl ScriptedServer {
    /// Serves `replies` in order; after the last, repeats the last.
    pub(crate) async fn start(replies: Vec<Reply>) -> ScriptedServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&requests);
        tokio::spawn(async move {
            loop {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let index = counter.fetch_add(1, Ordering::SeqCst);
                let reply = replies[index.min(replies.len() - 1)].clone();
                tokio::spawn(async move {
                    read_request(&mut socket).await;
                    match reply {
                        Reply::Json(status, body) => {
                            let response = format!(
                                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
                                 connection: close\r\nx-correlation-id: scripted-{index}\r\n\r\n{body}",
                                body.len()
                            );
                            let _ = socket.write_all(response.as_bytes()).await;
                            let _ = socket.shutdown().await;
                        }
                        Reply::Hang => tokio::time::sleep(Duration::from_secs(60)).await,
                    }
                });
            }
        });
        ScriptedServer { base_url, requests }
    }

    pub(crate) fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

/// Reads the head and a `content-length` body, enough for the client to consider the request sent.
async fn read_request(socket: &mut tokio::net::TcpStream) {
    let mut data = Vec::new();
    let mut buffer = [0_u8; 4096];
    loop {
        let Ok(read) = socket.read(&mut buffer).await else {
            return;
        };
        if read == 0 {
            return;
        }
        data.extend_from_slice(&buffer[..read]);
        let text = String::from_utf8_lossy(&data).to_ascii_lowercase();
        if let Some(head_end) = text.find("\r\n\r\n") {
            let length = text[..head_end]
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|value| value.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if data.len() >= head_end + 4 + length {
                return;
            }
        }
    }
}

/// Unix ms `offset` from now.
pub(crate) fn unix_ms_in(offset: Duration) -> u128 {
    (SystemTime::now().duration_since(UNIX_EPOCH).unwrap() + offset).as_millis()
}
