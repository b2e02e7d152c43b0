//! The caller of `POST /api/receipts/status`: a subscription key or an admin session, whichever the status
//! and the request call for. What the caller may then do is the core's decision (`payments_core::Authority`).

use payments_core::{Authority, ReceiptStatus, Wallet};

use crate::domain::receipt::{Actor, ReceiptError};
use crate::domain::scope::Scope;
use crate::domain::subscription::Caller;
use crate::http::admin::AdminSession;
use crate::http::context::Ctx;
use crate::http::error::ApiError;

/// An authenticated status poster.
#[derive(Debug)]
pub(crate) enum StatusPoster {
    Key(Caller),
    Admin(AdminSession),
}

impl StatusPoster {
    /// The merchant the post acts on and who posts it. A key acts only for its own wallet; a merchant
    /// session for its own, a platform admin for any.
    ///
    /// # Errors
    /// 403 `forbidden` for another merchant's wallet.
    pub(crate) fn acting_for(&self, wallet: Wallet) -> Result<(Wallet, Actor), ApiError> {
        match self {
            StatusPoster::Key(caller) if caller.wallet == wallet => {
                Ok((wallet, Actor::Key(caller.subscription_id.clone())))
            }
            StatusPoster::Key(_) => Err(ReceiptError::WalletMismatch.into()),
            StatusPoster::Admin(admin) => Ok((admin.acting_for(Some(wallet))?, Actor::Admin(admin.wallet))),
        }
    }
}

impl Ctx<'_> {
    /// Authenticates a status post for `status` (as the body names it, if it names a known one). A status
    /// only an admin may post needs the admin session (401 without one, whatever key is sent). Any other is
    /// posted with the subscription key when one is presented, else with an admin session and its CSRF
    /// token (an admin's UI posting `link_opened`), else it is 401 "missing or invalid subscription key".
    /// A `checkout_success` that claims a transaction (`claims_payment`) is not admin-only: the chain vouches.
    ///
    /// # Errors
    /// 401, 403 (scope, CSRF, Origin) and 429 as the chosen credential's checks give them.
    pub(crate) async fn status_poster(
        &self,
        status: Option<ReceiptStatus>,
        claims_payment: bool,
    ) -> Result<StatusPoster, ApiError> {
        let admin_only = !claims_payment
            && status
                .and_then(ReceiptStatus::required_to_post)
                .is_some_and(|required| required.rank() >= Authority::Admin.rank());
        if admin_only || (!self.has_dev_credentials() && self.has_session_cookie()) {
            return Ok(StatusPoster::Admin(self.admin_session(true).await?));
        }
        Ok(StatusPoster::Key(self.dev_caller(Scope::ReceiptsWrite).await?))
    }
}
