//! `$/progress` for long solves: create the token, then begin, report, end.

use std::sync::atomic::{AtomicU64, Ordering};

use tower_lsp_server::ls_types::notification::Progress as ProgressNotification;
use tower_lsp_server::ls_types::{
    NumberOrString, ProgressParams, ProgressParamsValue, WorkDoneProgress, WorkDoneProgressBegin,
    WorkDoneProgressEnd, WorkDoneProgressReport,
};
use tower_lsp_server::Client;

static NEXT_TOKEN: AtomicU64 = AtomicU64::new(1);

/// A progress sink for one solve, handed out only to clients that support it.
#[derive(Clone)]
pub struct Progress {
    client: Client,
    token: NumberOrString,
}

impl Progress {
    pub fn new(client: Client) -> Progress {
        let n = NEXT_TOKEN.fetch_add(1, Ordering::Relaxed);
        Progress {
            client,
            token: NumberOrString::String(format!("boxls/solve/{n}")),
        }
    }

    /// Creates the token on the client and begins; `None` if the client refused.
    pub async fn begin(self, title: String, message: String) -> Option<Progress> {
        self.client
            .create_work_done_progress(self.token.clone())
            .await
            .ok()?;
        self.send(WorkDoneProgress::Begin(WorkDoneProgressBegin {
            title,
            cancellable: Some(false),
            message: Some(message),
            percentage: None,
        }))
        .await;
        Some(self)
    }

    pub async fn report(&self, message: &str) {
        self.send(WorkDoneProgress::Report(WorkDoneProgressReport {
            cancellable: Some(false),
            message: Some(message.to_string()),
            percentage: None,
        }))
        .await;
    }

    pub async fn end(&self, message: &str) {
        self.send(WorkDoneProgress::End(WorkDoneProgressEnd {
            message: Some(message.to_string()),
        }))
        .await;
    }

    async fn send(&self, value: WorkDoneProgress) {
        self.client
            .send_notification::<ProgressNotification>(ProgressParams {
                token: self.token.clone(),
                value: ProgressParamsValue::WorkDone(value),
            })
            .await;
    }
}
