import { useEffect, useState } from 'react';
import type { LeafView } from '../../shared/api';
import { useApi } from '../api/api-context';

export interface PacketRange {
  id: string;
  first: string;
  last: string;
}

/** At most this many compaction entries are read to offer packet overrides. */
const MAX_PACKETS = 64;

/** The compaction packets of the chain and the turn range each covers (read from their entries). */
export function usePackets(view: LeafView | null, key: string | null): PacketRange[] {
  const api = useApi();
  const [packets, setPackets] = useState<PacketRange[]>([]);
  useEffect(() => {
    if (!view || !key) return;
    let live = true;
    const ids = view.chain
      .filter((c) => c.kind === 'compaction')
      .slice(0, MAX_PACKETS)
      .map((c) => c.id);
    void Promise.all(ids.map((id) => api.getEntry({ key, id, maxBytes: 64 * 1024 }).catch(() => null))).then((ds) => {
      if (!live) return;
      const out: PacketRange[] = [];
      for (const d of ds) {
        const j = d?.json as { packet?: { first_turn_id?: unknown; last_turn_id?: unknown } } | null;
        const p = j?.packet;
        if (d && p && typeof p.first_turn_id === 'string' && typeof p.last_turn_id === 'string')
          out.push({ id: d.id, first: p.first_turn_id, last: p.last_turn_id });
      }
      setPackets(out);
    });
    return () => {
      live = false;
    };
  }, [api, view, key]);
  return view ? packets : [];
}

/** The packets whose range holds `turnId`, given the chain's closed turns in order. */
export function packetsCovering(turnId: string, turnOrder: string[], packets: PacketRange[]): PacketRange[] {
  const at = turnOrder.indexOf(turnId);
  return packets.filter((p) => {
    const a = turnOrder.indexOf(p.first);
    const b = turnOrder.indexOf(p.last);
    return a >= 0 && b >= a && at >= a && at <= b;
  });
}
