//! The bodies of a signed-in wallet's own profile writes (`PUT /api/users/me`, `POST /api/users/heartbeat`).

use serde::Serialize;

/// `PUT /api/users/me`: the whole profile (absent fields are cleared).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ProfileUpdate {
    /// 1 to 64 characters.
    pub display_name: String,
    /// An https URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pfp_url: Option<String>,
    /// An https URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space_url: Option<String>,
    /// At most 16, each 1 to 32 characters without commas.
    pub domains: Vec<String>,
    /// As `domains`.
    pub platforms: Vec<String>,
    /// As `domains`.
    pub languages: Vec<String>,
}

impl ProfileUpdate {
    /// A profile with only a display name.
    pub fn new(display_name: impl Into<String>) -> Self {
        ProfileUpdate {
            display_name: display_name.into(),
            ..ProfileUpdate::default()
        }
    }

    /// Sets the domains.
    #[must_use]
    pub fn domains(mut self, domains: Vec<String>) -> Self {
        self.domains = domains;
        self
    }

    /// Sets the platforms.
    #[must_use]
    pub fn platforms(mut self, platforms: Vec<String>) -> Self {
        self.platforms = platforms;
        self
    }

    /// Sets the languages.
    #[must_use]
    pub fn languages(mut self, languages: Vec<String>) -> Self {
        self.languages = languages;
        self
    }

    /// Sets the profile picture URL.
    #[must_use]
    pub fn pfp_url(mut self, url: impl Into<String>) -> Self {
        self.pfp_url = Some(url.into());
        self
    }
}

/// `POST /api/users/heartbeat`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Heartbeat {
    /// Whether the user is live.
    pub live: bool,
    /// Whether its space is public (only public spaces are listed live).
    pub space_public: bool,
    /// The platform it is live on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
}

impl Heartbeat {
    /// A heartbeat.
    pub fn new(live: bool, space_public: bool) -> Self {
        Heartbeat {
            live,
            space_public,
            platform: None,
        }
    }
}
