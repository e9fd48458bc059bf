//! The one place that touches deno_core: creating a runtime with the
//! polyfills and the app bundle loaded, running one render, and the handle
//! that terminates a runaway render from another thread.

use deno_core::{JsRuntime, PollEventLoopOptions, RuntimeOptions, op2, v8};

use crate::pool::RenderError;

/// `console.*` from JS, routed to `tracing` under the `ssr` target.
#[op2(fast)]
fn op_ssr_log(#[smi] level: u32, #[string] message: &str) {
    match level {
        0 => tracing::debug!(target: "ssr", "{message}"),
        1 => tracing::info!(target: "ssr", "{message}"),
        2 => tracing::warn!(target: "ssr", "{message}"),
        _ => tracing::error!(target: "ssr", "{message}"),
    }
}

deno_core::extension!(ssr_host, ops = [op_ssr_log]);

/// Name of the global the server bundle must define: `{ render(request) }`
/// returning the output (or a promise of it).
const ENTRY_GLOBAL: &str = "__ssr";

/// Terminates the render running in an engine; usable from any thread.
#[derive(Clone)]
pub struct TerminateHandle(v8::IsolateHandle);

impl TerminateHandle {
    pub fn terminate(&self) {
        self.0.terminate_execution();
    }
}

pub struct Engine {
    runtime: JsRuntime,
    /// Tokio runtime driving this engine's event loop on its own thread.
    reactor: tokio::runtime::Runtime,
}

impl Engine {
    /// Creates a runtime, installs the polyfills and evaluates the bundle.
    pub fn new(bundle: &str, heap_limit: usize) -> Result<Engine, RenderError> {
        let reactor = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| RenderError::Startup(e.to_string()))?;
        let mut runtime = JsRuntime::new(RuntimeOptions {
            extensions: vec![ssr_host::init()],
            create_params: Some(v8::CreateParams::default().heap_limits(0, heap_limit)),
            ..Default::default()
        });
        let handle = runtime.v8_isolate().thread_safe_handle();
        runtime.add_near_heap_limit_callback(move |current, _initial| {
            tracing::error!(target: "ssr", current, "render ran out of memory; terminating");
            handle.terminate_execution();
            current * 2
        });
        runtime
            .execute_script("ssr:polyfills.js", include_str!("polyfills.js"))
            .map_err(|e| RenderError::Startup(describe(&e)))?;
        runtime
            .execute_script("ssr:server.js", bundle.to_owned())
            .map_err(|e| RenderError::Startup(describe(&e)))?;
        let mut engine = Engine { runtime, reactor };
        engine.check_entry()?;
        Ok(engine)
    }

    fn check_entry(&mut self) -> Result<(), RenderError> {
        let probe = format!("typeof globalThis.{ENTRY_GLOBAL}?.render === 'function'");
        let value = self
            .runtime
            .execute_script("ssr:probe", probe)
            .map_err(|e| RenderError::Startup(describe(&e)))?;
        deno_core::scope!(scope, &mut self.runtime);
        if v8::Local::new(scope, value).is_true() {
            Ok(())
        } else {
            Err(RenderError::Startup(format!("the bundle does not define globalThis.{ENTRY_GLOBAL}.render")))
        }
    }

    pub fn terminate_handle(&mut self) -> TerminateHandle {
        TerminateHandle(self.runtime.v8_isolate().thread_safe_handle())
    }

    /// Runs one render of `request` (JSON) to completion, including its
    /// promise, if any, and returns what it resolved to.
    pub fn render(&mut self, request: &str) -> Result<serde_json::Value, RenderError> {
        // JSON is a JS expression; since ES2019 that includes U+2028/U+2029.
        let call = format!("globalThis.{ENTRY_GLOBAL}.render({request})");
        let runtime = &mut self.runtime;
        let value = self.reactor.block_on(async {
            let promise = runtime.execute_script("ssr:render", call).map_err(|e| js_error(&e))?;
            let resolved = runtime.resolve(promise);
            runtime
                .with_event_loop_promise(resolved, PollEventLoopOptions::default())
                .await
                .map_err(|e| match *e.0 {
                    deno_core::error::CoreErrorKind::Js(js) => js_error(&js),
                    other => RenderError::Js { message: other.to_string(), stack: None },
                })
        })?;
        deno_core::scope!(scope, runtime);
        let local = v8::Local::new(scope, value);
        deno_core::serde_v8::from_v8::<serde_json::Value>(scope, local).map_err(|e| RenderError::Contract(e.to_string()))
    }

    /// Lets a terminated isolate run again (a no-op when it was not terminated).
    pub fn clear_termination(&mut self) {
        self.runtime.v8_isolate().cancel_terminate_execution();
    }
}

fn describe(error: &deno_core::error::JsError) -> String {
    error.stack.clone().unwrap_or_else(|| error.exception_message.clone())
}

fn js_error(error: &deno_core::error::JsError) -> RenderError {
    RenderError::Js { message: error.exception_message.clone(), stack: error.stack.clone() }
}
