//! `payments inventory ...`: list, upsert, delete, upload-image, import.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use payments_client::{
    Client, InventoryItem, InventoryQuery, SortField, SortOrder, StockFilter, TagsMode, UpsertInventoryItem,
};
use payments_core::Cents;
use serde_json::json;

use crate::connection::{ConnectionArgs, block_on};
use crate::import::{self, ImportArgs};
use crate::item_view::{add_degraded, degraded_note, detail_table, page_json, page_table, parse_stock};
use crate::output::{print_json, print_text};
use crate::report::{exit_code, failure};

/// Manage the product catalog.
#[derive(Debug, Args)]
pub(crate) struct InventoryArgs {
    #[command(flatten)]
    pub(crate) connection: ConnectionArgs,
    #[command(subcommand)]
    pub(crate) command: InventoryCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum InventoryCommand {
    /// List products, filtered and sorted (one page, or every page with --all).
    List(Box<ListArgs>),
    /// Create a product, or update the one with the same SKU (or --id).
    Upsert(Box<UpsertArgs>),
    /// Delete a product by id.
    Delete(DeleteArgs),
    /// Upload a product image (JPEG, PNG or WebP) and print its data URL.
    UploadImage(UploadImageArgs),
    /// Upsert every product of a CSV file.
    #[command(long_about = import::LONG_ABOUT)]
    Import(ImportArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Free-text search over name, SKU, description, category and tags.
    #[arg(long, visible_alias = "search")]
    q: Option<String>,
    /// Only this category.
    #[arg(long)]
    category: Option<String>,
    /// Lowest price in USD, inclusive.
    #[arg(long, value_name = "USD")]
    price_min: Option<Cents>,
    /// Highest price in USD, inclusive.
    #[arg(long, value_name = "USD")]
    price_max: Option<Cents>,
    /// Tags to match, comma-separated.
    #[arg(long, value_delimiter = ',')]
    tags: Vec<String>,
    /// Whether products need all the tags or any of them.
    #[arg(long, value_enum)]
    tags_mode: Option<CliTagsMode>,
    /// Only this industry pack.
    #[arg(long)]
    industry_pack: Option<String>,
    /// Only taxable (true) or non-taxable (false) products.
    #[arg(long)]
    taxable: Option<bool>,
    /// Stock filter.
    #[arg(long, value_enum)]
    stock: Option<CliStock>,
    /// Sort field (the service's default: updatedAt).
    #[arg(long, value_enum)]
    sort: Option<CliSort>,
    /// Sort order (the service's default: desc).
    #[arg(long, value_enum)]
    order: Option<CliOrder>,
    /// Products per page, 1..=200 (the service's default: 100).
    #[arg(long)]
    page_size: Option<u32>,
    /// Page number, 0-indexed.
    #[arg(long, conflicts_with_all = ["all", "cursor"])]
    page: Option<u32>,
    /// Start after this position: the `nextCursor` of a previous page with the same filters and sort.
    #[arg(long, conflicts_with = "all")]
    cursor: Option<String>,
    /// Fetch every page (following each page's cursor, so products created meanwhile shift nothing).
    #[arg(long)]
    all: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CliTagsMode {
    All,
    Any,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CliStock {
    In,
    Out,
    All,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
#[value(rename_all = "camelCase")]
enum CliSort {
    Name,
    PriceUsd,
    StockQty,
    CreatedAt,
    UpdatedAt,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CliOrder {
    Asc,
    Desc,
}

#[derive(Debug, Args)]
pub(crate) struct UpsertArgs {
    /// Stock-keeping unit (an existing SKU is updated).
    #[arg(long)]
    sku: String,
    /// Display name.
    #[arg(long)]
    name: String,
    /// Unit price in USD, at most 2 decimals.
    #[arg(long, value_name = "USD")]
    price: Cents,
    /// Stock quantity: a whole number, 0 out of stock, `unlimited` (or -1).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_stock, value_name = "QTY|unlimited")]
    stock: i64,
    /// Update the product with this id instead of matching by SKU.
    #[arg(long)]
    id: Option<String>,
    /// Currency code (the service's default: USD).
    #[arg(long)]
    currency: Option<String>,
    /// Category.
    #[arg(long)]
    category: Option<String>,
    /// Description.
    #[arg(long)]
    description: Option<String>,
    /// Tags, comma-separated (at most 24).
    #[arg(long, value_delimiter = ',')]
    tags: Option<Vec<String>>,
    /// Whether tax applies.
    #[arg(long)]
    taxable: Option<bool>,
    /// Tax jurisdiction, e.g. US-CA.
    #[arg(long)]
    jurisdiction_code: Option<String>,
    /// Cost basis in USD.
    #[arg(long, value_name = "USD")]
    cost: Option<Cents>,
    /// Industry pack (the service's default: general).
    #[arg(long)]
    industry_pack: Option<String>,
    /// An image data URL (repeat for up to 3), e.g. from `upload-image`.
    #[arg(long = "image", value_name = "DATA_URL")]
    images: Vec<String>,
}

#[derive(Debug, Args)]
pub(crate) struct DeleteArgs {
    /// Id of the product to delete.
    id: String,
}

#[derive(Debug, Args)]
pub(crate) struct UploadImageArgs {
    /// SKU of the product the image is for.
    #[arg(long)]
    sku: String,
    /// The image file.
    file: PathBuf,
    /// MIME type; guessed from the extension (.jpg, .jpeg, .png, .webp) when absent.
    #[arg(long)]
    content_type: Option<String>,
}

/// Runs `payments inventory ...`, printing any error; the exit code says how it went.
pub(crate) fn run(args: InventoryArgs) -> ExitCode {
    exit_code(block_on(dispatch(args)).and_then(|result| result))
}

async fn dispatch(args: InventoryArgs) -> anyhow::Result<ExitCode> {
    let client = args.connection.keyed_client()?;
    let json = args.connection.json;
    match args.command {
        InventoryCommand::List(list_args) => list(&client, *list_args, json).await,
        InventoryCommand::Upsert(upsert_args) => upsert(&client, *upsert_args, json).await,
        InventoryCommand::Delete(delete_args) => delete(&client, delete_args, json).await,
        InventoryCommand::UploadImage(upload_args) => upload_image(&client, upload_args, json).await,
        InventoryCommand::Import(import_args) => import::run(&client, import_args, json).await,
    }
}

async fn list(client: &Client, args: ListArgs, json: bool) -> anyhow::Result<ExitCode> {
    let all = args.all;
    let mut query = args.into_query();
    if all && query.page_size.is_none() {
        query.page_size = Some(200);
    }
    let mut page = client.list_inventory(&query).await?;
    let total = page.total;
    let mut items: Vec<InventoryItem> = std::mem::take(&mut page.items);
    while all && let Some(cursor) = page.next_cursor.take() {
        query.cursor = Some(cursor);
        let mut next = client.list_inventory(&query).await?;
        items.append(&mut next.items);
        page.next_cursor = next.next_cursor;
    }
    if json {
        print_json(&page_json(&items, total, &page))?;
    } else {
        print_text(&page_table(&items, total, &page))?;
    }
    Ok(ExitCode::SUCCESS)
}

impl ListArgs {
    fn into_query(self) -> InventoryQuery {
        InventoryQuery {
            q: self.q,
            category: self.category,
            price_min: self.price_min,
            price_max: self.price_max,
            tags: self.tags,
            tags_mode: self.tags_mode.map(|mode| match mode {
                CliTagsMode::All => TagsMode::All,
                CliTagsMode::Any => TagsMode::Any,
            }),
            industry_pack: self.industry_pack,
            taxable: self.taxable,
            stock: self.stock.map(|stock| match stock {
                CliStock::In => StockFilter::InStock,
                CliStock::Out => StockFilter::OutOfStock,
                CliStock::All => StockFilter::All,
            }),
            sort: self.sort.map(|sort| match sort {
                CliSort::Name => SortField::Name,
                CliSort::PriceUsd => SortField::PriceUsd,
                CliSort::StockQty => SortField::StockQty,
                CliSort::CreatedAt => SortField::CreatedAt,
                CliSort::UpdatedAt => SortField::UpdatedAt,
            }),
            order: self.order.map(|order| match order {
                CliOrder::Asc => SortOrder::Asc,
                CliOrder::Desc => SortOrder::Desc,
            }),
            page_size: self.page_size,
            page: self.page,
            cursor: self.cursor,
        }
    }
}

async fn upsert(client: &Client, args: UpsertArgs, json: bool) -> anyhow::Result<ExitCode> {
    let mut body = UpsertInventoryItem::new(args.sku, args.name, args.price, args.stock);
    body.id = args.id;
    body.currency = args.currency;
    body.category = args.category;
    body.description = args.description;
    body.tags = args.tags;
    body.taxable = args.taxable;
    body.jurisdiction_code = args.jurisdiction_code;
    body.cost_usd = args.cost;
    body.industry_pack = args.industry_pack;
    body.images = (!args.images.is_empty()).then_some(args.images);
    let upserted = client.upsert_inventory_item(&body).await?;
    if json {
        let mut value = json!({ "ok": true, "item": upserted.item });
        add_degraded(&mut value, upserted.degraded.as_ref());
        print_json(&value)?;
    } else {
        let mut text = detail_table(&upserted.item);
        text.push_str(&degraded_note(upserted.degraded.as_ref()));
        print_text(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn delete(client: &Client, args: DeleteArgs, json: bool) -> anyhow::Result<ExitCode> {
    let deleted = client.delete_inventory_item(&args.id).await?;
    if json {
        let mut value = json!({ "ok": true, "id": args.id });
        add_degraded(&mut value, deleted.degraded.as_ref());
        print_json(&value)?;
    } else {
        print_text(&format!(
            "deleted {}\n{}",
            args.id,
            degraded_note(deleted.degraded.as_ref())
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn upload_image(client: &Client, args: UploadImageArgs, json: bool) -> anyhow::Result<ExitCode> {
    let content_type = match args.content_type {
        Some(content_type) => content_type,
        None => guess_content_type(&args.file)?.to_owned(),
    };
    let bytes = std::fs::read(&args.file)
        .map_err(|err| failure("io_error", format!("cannot read {}: {err}", args.file.display())))?;
    let filename = args
        .file
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let uploaded = client
        .upload_inventory_image(&args.sku, &filename, bytes, &content_type)
        .await?;
    if json {
        print_json(&json!({ "ok": true, "sku": args.sku, "imageUrl": uploaded.image_url }))?;
    } else {
        print_text(&format!("{}\n", uploaded.image_url))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn guess_content_type(file: &std::path::Path) -> anyhow::Result<&'static str> {
    let extension = file
        .extension()
        .map(|ext| ext.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("jpg" | "jpeg") => Ok("image/jpeg"),
        Some("png") => Ok("image/png"),
        Some("webp") => Ok("image/webp"),
        _ => Err(failure(
            "invalid_input",
            format!(
                "cannot tell the image type of {}; pass --content-type",
                file.display()
            ),
        )),
    }
}
