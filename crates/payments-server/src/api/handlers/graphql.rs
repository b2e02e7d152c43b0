//! GET and POST /api/graphql (Dev, graphql:read): `query`, `variables` (JSON) and `operationName` as query
//! parameters, or the usual JSON body. GraphQL errors answer 200 with `errors`, like every GraphQL server.

use async_graphql::{Request, Variables};
use hyper::Method;
use serde::Deserialize;

use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct GraphqlBody {
    query: String,
    #[serde(default)]
    variables: Option<serde_json::Value>,
    #[serde(default)]
    operation_name: Option<String>,
}

/// Read-only GraphQL (queries user, follows, liveUsers, leaderboard) (graphql:read). GraphQL errors answer 200 with errors.
#[utoipa::path(
    method(get, post),
    path = "/api/graphql",
    operation_id = "graphql",
    tag = "graphql",
    security(("subscription_key" = [])),
    params(
        ("query" = Option<String>, Query, description = "GET: the query document."),
        ("variables" = Option<String>, Query, description = "GET: variables as a JSON object."),
        ("operationName" = Option<String>, Query, description = "GET: the operation to run.")
    ),
    request_body(content = GraphqlBody, description = "POST: the query as JSON (GET: the query parameters)."),
    responses(
        (status = 200, description = "The GraphQL response: data and/or errors.", body = serde_json::Value),
        (status = 400, description = "query is missing or variables is not JSON (invalid_input).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn execute(ctx: &Ctx<'_>, method: &Method) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::GraphqlRead).await?;
    let body = if method == Method::POST {
        ctx.json::<GraphqlBody>().await?
    } else {
        from_query(ctx)?
    };
    let mut request = Request::new(body.query).variables(Variables::from_json(
        body.variables.unwrap_or(serde_json::Value::Null),
    ));
    if let Some(name) = body.operation_name {
        request = request.operation_name(name);
    }
    let endpoint = crate::api::graphql::endpoint(ctx.state)
        .ok_or_else(|| ApiError::internal("the GraphQL endpoint is not the app's"))?;
    let answer = endpoint.execute(request, caller.scopes).await;
    Ok(response::ok(&answer))
}

fn from_query(ctx: &Ctx<'_>) -> Result<GraphqlBody, ApiError> {
    let variables = ctx
        .query("variables")
        .filter(|text| !text.trim().is_empty())
        .map(serde_json::from_str)
        .transpose()
        .map_err(|error| {
            ApiError::invalid_input(
                Some("variables".to_owned()),
                format!("variables: must be a JSON object ({error})"),
            )
        })?;
    Ok(GraphqlBody {
        query: ctx.required_query("query")?.to_owned(),
        variables,
        operation_name: ctx.query("operationName").map(str::to_owned),
    })
}
