//! The one place that touches deno_core: creating a runtime with the
//! polyfills and the app bundle loaded, running one render, and the handle
//! that terminates a runaway render from another thread.

use deno_core::{JsRuntime, PollEventLoopOptions, RuntimeOptions, op2, v8};

use crate::error::RenderError;

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
    /// `globalThis.__ssr.render`, looked up once: calling it costs no
    /// script to compile, and no walk of the whole heap, which QuickJS's
    /// V8 layer makes after every script it evaluates (a fixed cost that
    /// was a third of a small render's).
    render: v8::Global<v8::Function>,
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
        runtime.execute_script("ssr:server.js", bundle.to_owned()).map_err(|e| RenderError::Startup(describe(&e)))?;
        let render = entry(&mut runtime)?;
        Ok(Engine { runtime, reactor, render })
    }

    pub fn terminate_handle(&mut self) -> TerminateHandle {
        TerminateHandle(self.runtime.v8_isolate().thread_safe_handle())
    }

    /// Runs one render of `request` (JSON) to completion, including its
    /// promise, if any, and returns what it resolved to.
    pub fn render(&mut self, request: &str) -> Result<serde_json::Value, RenderError> {
        let argument = {
            deno_core::scope!(scope, &mut self.runtime);
            let text = v8::String::new(scope, request)
                .ok_or_else(|| RenderError::Contract("a request too long for a JS string".into()))?;
            let value = v8::json::parse(scope, text)
                .ok_or_else(|| RenderError::Contract("a request that is not JSON".into()))?;
            v8::Global::new(scope, value)
        };
        let runtime = &mut self.runtime;
        let called = runtime.call_with_args(&self.render, &[argument]);
        let value = self.reactor.block_on(async {
            runtime.with_event_loop_promise(called, PollEventLoopOptions::default()).await.map_err(|e| match *e.0 {
                deno_core::error::CoreErrorKind::Js(js) => js_error(&js),
                other => RenderError::Js { message: other.to_string(), stack: None },
            })
        })?;
        deno_core::scope!(scope, runtime);
        let local = v8::Local::new(scope, value);
        deno_core::serde_v8::from_v8::<serde_json::Value>(scope, local)
            .map_err(|e| RenderError::Contract(e.to_string()))
    }

    /// Lets a terminated isolate run again (a no-op when it was not terminated).
    pub fn clear_termination(&mut self) {
        self.runtime.v8_isolate().cancel_terminate_execution();
    }
}

/// The bundle's `globalThis.__ssr.render`, which must be a function.
fn entry(runtime: &mut JsRuntime) -> Result<v8::Global<v8::Function>, RenderError> {
    let value = runtime
        .execute_script("ssr:entry", format!("globalThis.{ENTRY_GLOBAL}?.render"))
        .map_err(|e| RenderError::Startup(describe(&e)))?;
    deno_core::scope!(scope, runtime);
    let value = v8::Local::new(scope, value);
    let render = v8::Local::<v8::Function>::try_from(value)
        .map_err(|_| RenderError::Startup(format!("the bundle does not define globalThis.{ENTRY_GLOBAL}.render")))?;
    Ok(v8::Global::new(scope, render))
}

fn describe(error: &deno_core::error::JsError) -> String {
    error.stack.clone().unwrap_or_else(|| error.exception_message.clone())
}

fn js_error(error: &deno_core::error::JsError) -> RenderError {
    RenderError::Js { message: error.exception_message.clone(), stack: error.stack.clone() }
}
