//! The binary's tools besides serving: `site content-model` (what a CMS
//! must hold) and `site check-cms` (a CMS checked against it).

use std::process::ExitCode;

use crate::app_build::AppBuild;
use crate::config::Config;
use crate::error::StartError;
use crate::sources::content_source;
use crate::{content, forms, manifest, preview};

/// `site content-model`: prints the content model as a CMS must hold it
/// (JSON), with the collection types the forms are delivered to
/// (`formTypes`) and where each type is seen on the site (`previewPaths`).
pub fn content_model(build: AppBuild) -> ExitCode {
    match model(build) {
        Ok(model) => {
            println!("{model:#}");
            ExitCode::SUCCESS
        }
        Err(error) => error.exit(),
    }
}

fn model(build: AppBuild) -> Result<serde_json::Value, StartError> {
    let routes = manifest::RouteTable::from_json(build.routes_json)?;
    let mut model = content::check::content_model(&routes);
    model["formTypes"] = forms::cms_types();
    model["previewPaths"] = preview::paths(&routes);
    Ok(model)
}

/// `site check-cms`: checks the CMS at `CMS_URL` against the content model
/// and prints what it found; fails when the CMS lacks anything.
pub async fn check_cms(config: &Config, build: AppBuild) -> ExitCode {
    match check(config, build).await {
        Ok(report) => {
            print!("{}", report.text);
            if report.complete { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        Err(error) => error.exit(),
    }
}

async fn check(config: &Config, build: AppBuild) -> Result<content::check::Report, StartError> {
    if config.cms.url.is_none() {
        return Err(StartError::Required { setting: "CMS_URL", why: "for check-cms: it checks the CMS there" });
    }
    let routes = manifest::RouteTable::from_json(build.routes_json)?;
    let source = content_source(config, build, None)?;
    Ok(content::check::check(source.as_ref(), &routes).await)
}
