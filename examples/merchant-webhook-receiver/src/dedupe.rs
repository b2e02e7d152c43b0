//! The deliveries seen recently, so a retried delivery is acknowledged but not handled twice.

use std::collections::{HashSet, VecDeque};

/// The last `capacity` delivery ids, oldest first out. Memory stays bounded whatever arrives.
#[derive(Debug)]
pub(crate) struct RecentDeliveries {
    order: VecDeque<String>,
    seen: HashSet<String>,
    capacity: usize,
}

impl RecentDeliveries {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            order: VecDeque::with_capacity(capacity),
            seen: HashSet::with_capacity(capacity),
            capacity,
        }
    }

    /// Records `id`; `false` when it was already recorded (a duplicate delivery).
    pub(crate) fn first_time(&mut self, id: &str) -> bool {
        if self.seen.contains(id) {
            return false;
        }
        if self.order.len() >= self.capacity
            && let Some(oldest) = self.order.pop_front()
        {
            self.seen.remove(&oldest);
        }
        self.order.push_back(id.to_owned());
        self.seen.insert(id.to_owned());
        true
    }

    /// Forgets `id`, so that the service's retry of a delivery we could not take is handled.
    pub(crate) fn forget(&mut self, id: &str) {
        if self.seen.remove(id) {
            self.order.retain(|kept| kept != id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RecentDeliveries;

    #[test]
    fn a_repeated_delivery_is_recognised() {
        let mut recent = RecentDeliveries::new(8);

        assert!(recent.first_time("d-1"));
        assert!(!recent.first_time("d-1"));
        assert!(recent.first_time("d-2"));
    }

    #[test]
    fn the_oldest_delivery_is_forgotten_once_the_capacity_is_reached() {
        let mut recent = RecentDeliveries::new(2);
        recent.first_time("d-1");
        recent.first_time("d-2");

        assert!(recent.first_time("d-3"));
        assert!(recent.first_time("d-1"));
        assert!(!recent.first_time("d-3"));
    }

    #[test]
    fn a_forgotten_delivery_counts_as_new_again() {
        let mut recent = RecentDeliveries::new(2);
        recent.first_time("d-1");

        recent.forget("d-1");

        assert!(recent.first_time("d-1"));
    }
}
