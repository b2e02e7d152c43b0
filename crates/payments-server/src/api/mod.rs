//! The API: the only layer that knows routes, JSON wire types, OpenAPI, GraphQL and HTML. [`routes`] is the
//! one route table (dispatch, 405, metrics labels and the OpenAPI paths come from it); handlers are thin (extract, one service call, render).

pub(crate) mod graphql;
pub(crate) mod handlers;
pub(crate) mod openapi;
pub(crate) mod portal;
pub(crate) mod routes;
pub(crate) mod wire;
