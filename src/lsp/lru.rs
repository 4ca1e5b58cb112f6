//! A least-recently-used map with O(1) get, insert, remove and eviction: a hash map
//! into a slab of doubly linked entries.

use std::collections::HashMap;
use std::hash::Hash;

const NONE: usize = usize::MAX;

struct Entry<K, V> {
    key: K,
    value: V,
    /// Towards the most recently used end, and towards the least.
    newer: usize,
    older: usize,
}

pub struct Lru<K, V> {
    index: HashMap<K, usize>,
    slots: Vec<Option<Entry<K, V>>>,
    free: Vec<usize>,
    newest: usize,
    oldest: usize,
}

impl<K: Hash + Eq + Clone, V> Default for Lru<K, V> {
    fn default() -> Self {
        Lru {
            index: HashMap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            newest: NONE,
            oldest: NONE,
        }
    }
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// The value, now the most recently used.
    pub fn get<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let slot = *self.index.get(key)?;
        self.unlink(slot);
        self.link_newest(slot);
        self.slots[slot].as_mut().map(|entry| &mut entry.value)
    }

    /// Inserts as the most recently used; returns the value it replaced.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        let replaced = self.remove(&key);
        let entry = Entry {
            key: key.clone(),
            value,
            newer: NONE,
            older: NONE,
        };
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot] = Some(entry);
                slot
            }
            None => {
                self.slots.push(Some(entry));
                self.slots.len() - 1
            }
        };
        self.index.insert(key, slot);
        self.link_newest(slot);
        replaced
    }

    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let slot = self.index.remove(key)?;
        self.unlink(slot);
        self.free.push(slot);
        self.slots[slot].take().map(|entry| entry.value)
    }

    /// Removes and returns the least recently used entry.
    pub fn pop_oldest(&mut self) -> Option<(K, V)> {
        if self.oldest == NONE {
            return None;
        }
        let slot = self.oldest;
        self.unlink(slot);
        self.free.push(slot);
        let entry = self.slots[slot].take()?;
        self.index.remove(&entry.key);
        Some((entry.key, entry.value))
    }

    /// Keeps only the entries `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&V) -> bool) {
        let doomed: Vec<K> = self
            .slots
            .iter()
            .flatten()
            .filter(|entry| !keep(&entry.value))
            .map(|entry| entry.key.clone())
            .collect();
        for key in doomed {
            self.remove(&key);
        }
    }

    fn links(&mut self, slot: usize) -> (usize, usize) {
        self.slots[slot]
            .as_ref()
            .map_or((NONE, NONE), |entry| (entry.newer, entry.older))
    }

    fn set_newer(&mut self, slot: usize, newer: usize) {
        if let Some(entry) = self.slots[slot].as_mut() {
            entry.newer = newer;
        }
    }

    fn set_older(&mut self, slot: usize, older: usize) {
        if let Some(entry) = self.slots[slot].as_mut() {
            entry.older = older;
        }
    }

    fn unlink(&mut self, slot: usize) {
        let (newer, older) = self.links(slot);
        match newer {
            NONE => self.newest = older,
            newer => self.set_older(newer, older),
        }
        match older {
            NONE => self.oldest = newer,
            older => self.set_newer(older, newer),
        }
        self.set_newer(slot, NONE);
        self.set_older(slot, NONE);
    }

    fn link_newest(&mut self, slot: usize) {
        let previous = self.newest;
        self.set_older(slot, previous);
        self.set_newer(slot, NONE);
        match previous {
            NONE => self.oldest = slot,
            previous => self.set_newer(previous, slot),
        }
        self.newest = slot;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_the_least_recently_used() {
        let mut lru = Lru::default();
        for n in 0..5 {
            lru.insert(n, n * 10);
        }
        assert_eq!(lru.get(&0), Some(&mut 0));
        assert_eq!(lru.pop_oldest(), Some((1, 10)));
        lru.remove(&2);
        assert_eq!(lru.pop_oldest(), Some((3, 30)));
        lru.insert(3, 31);
        assert_eq!(lru.insert(4, 41), Some(40));
        let order: Vec<_> = std::iter::from_fn(|| lru.pop_oldest()).collect();
        assert_eq!(order, [(0, 0), (3, 31), (4, 41)]);
        assert_eq!(lru.len(), 0);
    }

    #[test]
    fn agrees_with_a_naive_model() {
        let mut lru = Lru::default();
        let mut model: Vec<(u32, u32)> = Vec::new(); // oldest first
        let mut seed = 7u64;
        for step in 0..20_000u32 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = ((seed >> 33) % 64) as u32;
            match (seed >> 20) % 4 {
                0 => {
                    let got = lru.get(&key).copied();
                    let at = model.iter().position(|(k, _)| *k == key);
                    assert_eq!(got, at.map(|i| model[i].1));
                    if let Some(i) = at {
                        let entry = model.remove(i);
                        model.push(entry);
                    }
                }
                1 => {
                    assert_eq!(
                        lru.remove(&key),
                        model
                            .iter()
                            .position(|(k, _)| *k == key)
                            .map(|i| model.remove(i).1)
                    );
                }
                2 => assert_eq!(
                    lru.pop_oldest(),
                    (!model.is_empty()).then(|| model.remove(0))
                ),
                _ => {
                    let old = model
                        .iter()
                        .position(|(k, _)| *k == key)
                        .map(|i| model.remove(i).1);
                    assert_eq!(lru.insert(key, step), old);
                    model.push((key, step));
                }
            }
            assert_eq!(lru.len(), model.len());
        }
    }
}
