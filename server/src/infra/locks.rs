//! One way to take a lock whose last holder panicked (a poisoned lock):
//! take it anyway, say so once in the log, and carry on. Every lock in
//! this server guards a cache, a table of work under way, a counter or a
//! database connection whose transaction rolls back when dropped: what a
//! panic can leave half-done there costs at most a stale or missing entry.
//! Refusing the lock instead (`expect`) would turn one panic, which the
//! catch-panic layer answers with one 500, into a panic in every request
//! after it.

use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// `mutex` locked, poisoned or not.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| {
        recovered();
        mutex.clear_poison();
        poisoned.into_inner()
    })
}

/// `lock` read, poisoned or not.
pub fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|poisoned| {
        recovered();
        lock.clear_poison();
        poisoned.into_inner()
    })
}

/// `lock` written, poisoned or not.
pub fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|poisoned: PoisonError<_>| {
        recovered();
        lock.clear_poison();
        poisoned.into_inner()
    })
}

fn recovered() {
    tracing::warn!("a lock's holder panicked; the lock is taken as it was left");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poisoned_lock_is_taken_as_it_was_left_and_no_longer_poisoned() {
        let mutex = Mutex::new(1);
        let _ = std::panic::catch_unwind(|| {
            let mut value = mutex.lock().unwrap();
            *value = 2;
            panic!("while holding it");
        });
        assert!(mutex.is_poisoned());
        assert_eq!(*lock(&mutex), 2);
        assert!(!mutex.is_poisoned());
    }
}
