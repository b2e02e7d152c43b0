//! Subscription scopes: what a key may do.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One permission attached to a subscription key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// `inventory:read`
    InventoryRead,
    /// `inventory:write`
    InventoryWrite,
    /// `orders:create`
    OrdersCreate,
    /// `receipts:read`
    ReceiptsRead,
    /// `receipts:write`
    ReceiptsWrite,
    /// `shop:read`
    ShopRead,
    /// `split:read`
    SplitRead,
    /// `users:read`
    UsersRead,
    /// `graphql:read`
    GraphqlRead,
    /// `subscriptions:read`
    SubscriptionsRead,
    /// `subscriptions:write`
    SubscriptionsWrite,
    /// `webhooks:read`: list webhook endpoints and their delivery logs.
    WebhooksRead,
    /// `webhooks:write`: create, change, delete and rotate webhook endpoints; redeliver, recover, trigger.
    WebhooksWrite,
}

impl Scope {
    /// Every scope, in the spec's order.
    pub const ALL: [Scope; 13] = [
        Scope::InventoryRead,
        Scope::InventoryWrite,
        Scope::OrdersCreate,
        Scope::ReceiptsRead,
        Scope::ReceiptsWrite,
        Scope::ShopRead,
        Scope::SplitRead,
        Scope::UsersRead,
        Scope::GraphqlRead,
        Scope::SubscriptionsRead,
        Scope::SubscriptionsWrite,
        Scope::WebhooksRead,
        Scope::WebhooksWrite,
    ];

    /// The wire name, e.g. `inventory:read`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::InventoryRead => "inventory:read",
            Scope::InventoryWrite => "inventory:write",
            Scope::OrdersCreate => "orders:create",
            Scope::ReceiptsRead => "receipts:read",
            Scope::ReceiptsWrite => "receipts:write",
            Scope::ShopRead => "shop:read",
            Scope::SplitRead => "split:read",
            Scope::UsersRead => "users:read",
            Scope::GraphqlRead => "graphql:read",
            Scope::SubscriptionsRead => "subscriptions:read",
            Scope::SubscriptionsWrite => "subscriptions:write",
            Scope::WebhooksRead => "webhooks:read",
            Scope::WebhooksWrite => "webhooks:write",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A scope name that is not one of [`Scope::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "unknown scope '{0}' (known: inventory:read, inventory:write, orders:create, receipts:read, receipts:write, shop:read, split:read, users:read, graphql:read, subscriptions:read, subscriptions:write, webhooks:read, webhooks:write)"
)]
pub struct ScopeError(pub String);

impl FromStr for Scope {
    type Err = ScopeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Scope::ALL
            .into_iter()
            .find(|scope| scope.as_str() == text)
            .ok_or_else(|| ScopeError(text.chars().take(64).collect()))
    }
}

/// A set of scopes, kept sorted and without duplicates.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// Every scope.
    pub fn all() -> Self {
        Scopes(Scope::ALL.to_vec())
    }

    /// The set of the given scopes.
    pub fn from_scopes(scopes: impl IntoIterator<Item = Scope>) -> Self {
        let mut scopes: Vec<Scope> = scopes.into_iter().collect();
        scopes.sort();
        scopes.dedup();
        Scopes(scopes)
    }

    /// Whether `scope` is in the set.
    pub fn contains(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    /// The scopes, in the spec's order.
    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }
}

impl FromStr for Scopes {
    type Err = ScopeError;

    /// Parses a comma-separated list (`inventory:read,shop:read`); blanks around names are ignored.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let scopes = text
            .split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .map(Scope::from_str)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Scopes::from_scopes(scopes))
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|scope| scope.as_str()).collect();
        f.write_str(&names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_lists_parse_sorted_and_deduplicated() {
        let scopes: Scopes = "shop:read, inventory:read,shop:read".parse().unwrap();

        assert_eq!(scopes.to_string(), "inventory:read,shop:read");
    }

    #[test]
    fn unknown_scope_names_are_refused() {
        assert_eq!(
            "inventory:admin".parse::<Scopes>(),
            Err(ScopeError("inventory:admin".to_owned()))
        );
    }
}
