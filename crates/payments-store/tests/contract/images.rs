//! [`InventoryRepository`](payments_store::InventoryRepository) images: listed as metadata only, read one at a
//! time (left unread when the caller has that version) or a few for embedding, kept or reordered by
//! reference on upsert, and deleted with their product.

use bytes::Bytes;

use payments_domain::inventory::{
    ContentHash, ImageFetch, ImageInput, ImageKey, ImageMeta, MAX_IMAGES, NewImage, ProductId, Sku,
};
use payments_store::testing::fixtures::{self, Repositories, T0, wallet};
use payments_store::testing::images::{HASH_A, HASH_B, HASH_C, JPEG_C, PNG_A, PNG_B};
use payments_store::testing::{all_items, product_id};
use payments_store::{AttachOutcome, UpsertOutcome};

fn image(bytes: &'static [u8]) -> NewImage {
    NewImage::from_bytes(Bytes::from_static(bytes)).unwrap()
}

fn key(product: &ProductId, index: usize) -> ImageKey {
    ImageKey {
        product: product.clone(),
        index,
    }
}

fn hash(hex: &str) -> ContentHash {
    ContentHash::from_stored(hex.to_owned())
}

/// The hashes of the images of the merchant's product with this SKU, in order.
async fn stored_hashes(repos: &Repositories, merchant: payments_core::Wallet, sku: &str) -> Vec<String> {
    let items = all_items(repos, merchant).await;
    let item = items.iter().find(|item| item.fields.sku.as_str() == sku).unwrap();
    item.images
        .iter()
        .map(|meta| meta.sha256.as_str().to_owned())
        .collect()
}

async fn bytes_of(
    repos: &Repositories,
    merchant: payments_core::Wallet,
    image: &ImageKey,
) -> Option<Vec<u8>> {
    match repos.inventory.fetch_image(merchant, image, &[]).await.unwrap() {
        Some(ImageFetch::Fetched(stored)) => Some(stored.bytes),
        Some(ImageFetch::Unchanged(_)) => panic!("nothing was known, yet the bytes were not read"),
        None => None,
    }
}

pub(crate) async fn images_attach_up_to_the_maximum_and_list_without_their_bytes(repos: Repositories) {
    let merchant = wallet('a');
    product_id(&repos, fixtures::product(merchant, "CUP", 1, &[])).await;
    let sku = Sku::parse("sku", "CUP").unwrap();

    for bytes in [PNG_A, PNG_B, JPEG_C] {
        let attached = repos
            .inventory
            .attach_image(merchant, &sku, &image(bytes), T0 + 1)
            .await
            .unwrap();
        assert_eq!(attached, AttachOutcome::Attached);
    }

    let extra = image(PNG_A);
    let fourth = repos.inventory.attach_image(merchant, &sku, &extra, T0 + 2).await;
    assert_eq!(fourth.unwrap(), AttachOutcome::TooManyImages);
    let theirs = repos
        .inventory
        .attach_image(wallet('c'), &sku, &extra, T0 + 2)
        .await;
    assert_eq!(theirs.unwrap(), AttachOutcome::UnknownSku);
    let items = all_items(&repos, merchant).await;
    assert_eq!(items[0].updated_at, T0 + 1);
    assert_eq!(items[0].images.len(), MAX_IMAGES);
    assert_eq!(
        items[0].images[2],
        ImageMeta {
            index: 2,
            content_type: "image/jpeg".to_owned(),
            byte_size: 4,
            sha256: hash(HASH_C),
        }
    );
    assert_eq!(
        stored_hashes(&repos, merchant, "CUP").await,
        [HASH_A, HASH_B, HASH_C]
    );
}

pub(crate) async fn an_image_is_read_alone_and_left_unread_when_the_caller_has_it(repos: Repositories) {
    let merchant = wallet('a');
    let id = product_id(&repos, fixtures::product(merchant, "CUP", 1, &[])).await;
    let sku = Sku::parse("sku", "CUP").unwrap();
    for bytes in [PNG_A, PNG_B] {
        repos
            .inventory
            .attach_image(merchant, &sku, &image(bytes), T0)
            .await
            .unwrap();
    }

    let second = key(&id, 1);
    let fetched = repos
        .inventory
        .fetch_image(merchant, &second, &[hash(HASH_A)])
        .await;
    let known = [hash(HASH_A), hash(HASH_B)];
    let unchanged = repos.inventory.fetch_image(merchant, &second, &known).await;

    let Some(ImageFetch::Fetched(stored)) = fetched.unwrap() else {
        panic!("image 1 was not read");
    };
    assert_eq!(
        (stored.bytes.as_slice(), stored.meta.sha256),
        (PNG_B, hash(HASH_B))
    );
    assert_eq!(stored.meta.content_type, "image/png");
    let Some(ImageFetch::Unchanged(meta)) = unchanged.unwrap() else {
        panic!("a version the caller has was read again");
    };
    assert_eq!((meta.index, meta.byte_size), (1, 9));
    assert_eq!(bytes_of(&repos, merchant, &key(&id, 2)).await, None);
    assert_eq!(bytes_of(&repos, wallet('c'), &key(&id, 0)).await, None);
    let unknown = ProductId::from_stored("prod_missing".to_owned());
    assert_eq!(bytes_of(&repos, merchant, &key(&unknown, 0)).await, None);
}

pub(crate) async fn embedded_images_are_read_only_where_named_and_only_the_merchants(repos: Repositories) {
    let merchant = wallet('a');
    let cup = product_id(&repos, fixtures::product(merchant, "CUP", 1, &[])).await;
    let mug = product_id(&repos, fixtures::product(merchant, "MUG", 1, &[])).await;
    let theirs = product_id(&repos, fixtures::product(wallet('c'), "PLATE", 1, &[])).await;
    for (owner, sku, bytes) in [
        (merchant, "CUP", PNG_A),
        (merchant, "CUP", PNG_B),
        (merchant, "MUG", JPEG_C),
        (wallet('c'), "PLATE", PNG_A),
    ] {
        let sku = Sku::parse("sku", sku).unwrap();
        repos
            .inventory
            .attach_image(owner, &sku, &image(bytes), T0)
            .await
            .unwrap();
    }
    let wanted = [key(&cup, 1), key(&mug, 0), key(&cup, 5), key(&theirs, 0)];

    let found = repos.inventory.fetch_images(merchant, &wanted).await.unwrap();

    let found: Vec<(ImageKey, Vec<u8>)> = found
        .into_iter()
        .map(|(key, stored)| (key, stored.bytes))
        .collect();
    assert_eq!(
        found,
        [(key(&cup, 1), PNG_B.to_vec()), (key(&mug, 0), JPEG_C.to_vec())]
    );
    assert!(
        repos
            .inventory
            .fetch_images(merchant, &[])
            .await
            .unwrap()
            .is_empty()
    );
}

pub(crate) async fn upserts_keep_reorder_and_replace_images_and_refuse_images_not_their_own(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let mut first = fixtures::product(merchant, "CUP", 1, &[]);
    first.draft.images = Some(vec![ImageInput::New(image(PNG_A)), ImageInput::New(image(PNG_B))]);
    let id = product_id(&repos, first).await;
    let other = product_id(&repos, fixtures::product(merchant, "MUG", 1, &[])).await;
    let with_images = |images: Vec<ImageInput>| {
        let mut upsert = fixtures::product(merchant, "CUP", 2, &[]);
        upsert.draft.images = Some(images);
        upsert
    };

    let reordered = with_images(vec![
        ImageInput::Kept(key(&id, 1)),
        ImageInput::New(image(JPEG_C)),
        ImageInput::Kept(key(&id, 0)),
    ]);
    let UpsertOutcome::Saved(saved) = repos.inventory.upsert(&reordered).await.unwrap() else {
        panic!("the reordered product was not saved");
    };

    let order: Vec<&str> = saved.images.iter().map(|meta| meta.sha256.as_str()).collect();
    assert_eq!(order, [HASH_B, HASH_C, HASH_A]);
    assert_eq!(bytes_of(&repos, merchant, &key(&id, 2)).await.unwrap(), PNG_A);
    for refused in [
        vec![ImageInput::New(image(PNG_A)), ImageInput::Kept(key(&id, 3))],
        vec![ImageInput::Kept(key(&other, 0))],
    ] {
        let index = refused.len() - 1;
        let outcome = repos.inventory.upsert(&with_images(refused)).await.unwrap();
        assert_eq!(outcome, UpsertOutcome::UnknownImage { index });
    }
    assert_eq!(
        stored_hashes(&repos, merchant, "CUP").await.len(),
        3,
        "a refused upsert wrote"
    );
    let mut new_product = fixtures::product(merchant, "PLATE", 1, &[]);
    new_product.draft.images = Some(vec![ImageInput::Kept(key(&id, 0))]);
    assert_eq!(
        repos.inventory.upsert(&new_product).await.unwrap(),
        UpsertOutcome::UnknownImage { index: 0 }
    );
    let mut keep_all = with_images(Vec::new());
    keep_all.draft.images = None;
    repos.inventory.upsert(&keep_all).await.unwrap();
    assert_eq!(
        stored_hashes(&repos, merchant, "CUP").await,
        [HASH_B, HASH_C, HASH_A]
    );
    repos.inventory.upsert(&with_images(Vec::new())).await.unwrap();
    assert_eq!(all_items(&repos, merchant).await.len(), 2, "PLATE was created");
    assert!(stored_hashes(&repos, merchant, "CUP").await.is_empty());
    assert_eq!(bytes_of(&repos, merchant, &key(&id, 0)).await, None);
}

pub(crate) async fn deleting_a_product_deletes_its_images(repos: Repositories) {
    let merchant = wallet('a');
    let mut cup = fixtures::product(merchant, "CUP", 1, &[]);
    cup.draft.images = Some(vec![ImageInput::New(image(PNG_A))]);
    let id = product_id(&repos, cup).await;
    let mut recreated = fixtures::product(merchant, "CUP", 1, &[]);
    recreated.draft.images = None;

    assert!(repos.inventory.delete(merchant, &id).await.unwrap());
    let new_id = product_id(&repos, recreated).await;

    assert_eq!(bytes_of(&repos, merchant, &key(&id, 0)).await, None);
    assert_eq!(bytes_of(&repos, merchant, &key(&new_id, 0)).await, None);
    assert!(all_items(&repos, merchant).await[0].images.is_empty());
}
