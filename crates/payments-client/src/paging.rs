//! Every row of a list, page after page: [`Client::list_all_receipts`] and [`Client::list_all_inventory`]
//! follow the service's `nextCursor` and yield one row at a time.
//!
//! The service pages by keyset (the position after the last row seen), so rows created while a walk goes on
//! never make it repeat or skip the rows it has not reached yet.

use std::collections::VecDeque;

use futures_util::Stream;
use futures_util::stream;

use crate::client::Client;
use crate::error::Error;
use crate::item::InventoryItem;
use crate::query::InventoryQuery;
use crate::receipt::Receipt;

/// Where a walk is: rows fetched but not yielded yet, and the next page's cursor.
struct Walk<T> {
    buffered: VecDeque<T>,
    /// `None` before the first page; then the page's `nextCursor` (`None` inside: no more pages).
    next: Option<Option<String>>,
}

impl<T> Walk<T> {
    fn new() -> Self {
        Walk {
            buffered: VecDeque::new(),
            next: None,
        }
    }
}

impl Client {
    /// Every receipt, newest first, fetched `page_size` at a time (the service's default 100 when `None`;
    /// at most 200). A failed page ends the stream with its error.
    ///
    /// ```no_run
    /// use futures_util::TryStreamExt as _;
    /// # async fn run(client: payments_client::Client) -> Result<(), payments_client::Error> {
    /// let receipts: Vec<_> = client.list_all_receipts(Some(200)).try_collect().await?;
    /// # Ok(()) }
    /// ```
    pub fn list_all_receipts(
        &self,
        page_size: Option<u32>,
    ) -> impl Stream<Item = Result<Receipt, Error>> + '_ {
        stream::try_unfold(Walk::new(), move |mut walk| async move {
            loop {
                if let Some(receipt) = walk.buffered.pop_front() {
                    return Ok(Some((receipt, walk)));
                }
                let cursor = match &walk.next {
                    Some(None) => return Ok(None),
                    Some(Some(cursor)) => Some(cursor.as_str()),
                    None => None,
                };
                let page = self.list_receipts_page(page_size, cursor).await?;
                walk.buffered.extend(page.receipts);
                walk.next = Some(page.next_cursor);
            }
        })
    }

    /// Every product matching `query`'s filters, in its sort, page after page (its `page` is ignored; its
    /// `page_size`, default 100, sets how many come per request). A failed page ends the stream with its
    /// error.
    ///
    /// Rows are positioned by their sort value: a product whose sort value changes during the walk (an
    /// update moves its `updatedAt`) can be met twice or not at all; sort by `createdAt` for a walk that
    /// updates cannot disturb.
    pub fn list_all_inventory(
        &self,
        query: InventoryQuery,
    ) -> impl Stream<Item = Result<InventoryItem, Error>> + '_ {
        let query = InventoryQuery {
            page: None,
            cursor: None,
            ..query
        };
        stream::try_unfold(Walk::new(), move |mut walk| {
            let query = query.clone();
            async move {
                loop {
                    if let Some(item) = walk.buffered.pop_front() {
                        return Ok(Some((item, walk)));
                    }
                    let query = match &walk.next {
                        Some(None) => return Ok(None),
                        Some(Some(cursor)) => query.clone().cursor(cursor.as_str()),
                        None => query.clone(),
                    };
                    let page = self.list_inventory(&query).await?;
                    walk.buffered.extend(page.items);
                    walk.next = Some(page.next_cursor);
                }
            }
        })
    }
}
