//! `payments inventory image ID N --out FILE`: saves one stored product image (a listing shows images past
//! the service's size cap as their route, `/api/inventory/{id}/images/{n}?v=...`, instead of data URLs).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use payments_client::Client;
use serde_json::json;

use crate::output::{print_json, print_text};
use crate::report::failure;

#[derive(Debug, Args)]
pub(crate) struct ImageArgs {
    /// Id of the product.
    id: String,
    /// Which of its images, 0-based.
    index: usize,
    /// File to write the image to (replaced if it exists).
    #[arg(long, short = 'o', value_name = "FILE")]
    out: PathBuf,
}

pub(crate) async fn run(client: &Client, args: ImageArgs, json: bool) -> anyhow::Result<ExitCode> {
    let image = client.inventory_image(&args.id, args.index).await?;
    std::fs::write(&args.out, &image.bytes)
        .map_err(|err| failure("io_error", format!("cannot write {}: {err}", args.out.display())))?;
    if json {
        print_json(&json!({
            "ok": true,
            "id": args.id,
            "index": args.index,
            "contentType": image.content_type,
            "bytes": image.bytes.len(),
            "etag": image.etag,
            "out": args.out,
        }))?;
    } else {
        print_text(&format!(
            "wrote {} bytes ({}) to {}\n",
            image.bytes.len(),
            image.content_type,
            args.out.display()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
