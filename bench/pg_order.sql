-- pgbench script: the order-shaped transaction of bench-baseline's pg-probe (POST /orders) on its tables:
-- the shop by wallet, the item by id, one insert with a random text id under a unique index.
\set item random(1, 5000)
BEGIN;
SELECT id, fee_bps FROM probe_shops WHERE wallet = '0x' || lpad(to_hex(:item % 100 + 1), 40, '0');
SELECT shop_id, price_cents FROM probe_items WHERE id = :item;
INSERT INTO probe_orders (public_id, shop_id, item_id, qty, unit_price_cents, fee_cents, total_cents, currency,
    status, created_at)
    VALUES ('pgb_' || md5(random()::text || clock_timestamp()::text), :item % 100 + 1, :item, 1, 100, 0, 100,
    'USD', 'generated', 0);
END;
