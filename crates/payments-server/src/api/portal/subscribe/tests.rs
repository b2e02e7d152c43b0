use super::*;

fn view() -> SubscribeView {
    SubscribeView {
        plan_id: "plan_0123".to_owned(),
        brand_name: "Rosa's <Coffee>".to_owned(),
        name: "Weekly beans".to_owned(),
        description: "One bag a week".to_owned(),
        price: Cents::new(999),
        period: BillingPeriod::Weekly,
        active: true,
        chain_id: 31_337,
        test_mode: false,
    }
}

#[test]
fn the_page_names_the_brand_plan_price_and_period_and_loads_its_script() {
    let page = render_subscribe_page(&view());

    assert!(
        page.contains("<p class=\"brand\">Rosa&#39;s &lt;Coffee&gt;</p>"),
        "{page}"
    );
    assert!(
        page.contains("<h1 id=\"plan-heading\">Weekly beans</h1>"),
        "{page}"
    );
    assert!(
        page.contains("$9.99 <span class=\"amount-usd\">USDC every week</span>"),
        "{page}"
    );
    assert!(page.contains(">Connect wallet</button>"), "{page}");
    assert!(
        page.contains(">Subscribe for $9.99 every week</button>"),
        "{page}"
    );
    assert!(
        page.contains(
            "<script src=\"../portal/assets/wallet.js\" defer></script>\n<script src=\"assets/subscribe.js\" defer></script>"
        ),
        "{page}"
    );
    assert!(page.contains("data-permission-url=\"../api/subscriptions/plans/plan_0123/permission\""));
}

#[test]
fn a_closed_plan_offers_no_subscribe_button_and_runs_no_script() {
    let page = render_subscribe_page(&SubscribeView {
        active: false,
        ..view()
    });

    assert!(page.contains("no longer takes new subscribers"), "{page}");
    assert!(!page.contains("data-action=\"subscribe\""), "{page}");
    assert!(!page.contains("<script"), "{page}");
}

#[test]
fn a_test_mode_page_says_nothing_moves_real_money() {
    let page = render_subscribe_page(&SubscribeView {
        test_mode: true,
        ..view()
    });

    assert!(page.contains("<strong>Test mode.</strong>"), "{page}");
}
