import type { Gym, GymListItem } from "@gym/core/contract/gym";
import type { MemberListItem } from "@gym/core/contract/member";
import { api, isApiError, useApi, useApiList } from "@gym/web/api";
import { useAction } from "@gym/web/forms";
import { Button, Card, Group, Select, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { simulateUnlock } from "../api/visits";

/**
 * Local only: a member opens a door of the simulated Kisi account. The unlock goes through the
 * real webhook receiver (confirmed with the simulated Kisi), as a real one would.
 */
export function SimulatedUnlock({ onSent }: { onSent: () => void }) {
  const { data: members } = useApiList<MemberListItem>("/api/members?per_page=100");
  const { data: list } = useApi<GymListItem[]>("/api/gyms");
  const [gyms, setGyms] = useState<Gym[]>([]);
  useEffect(() => {
    if (!list) return;
    // Each gym's doors are on its settings; a gym this person cannot open is left out.
    void Promise.all(list.map((g) => api.get<Gym>(`/api/gyms/${g.id}`).catch(() => null))).then((all) =>
      setGyms(all.filter((g): g is Gym => g !== null)),
    );
  }, [list]);
  const [userId, setUserId] = useState<string | null>(null);
  const [doorId, setDoorId] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const sending = useAction(
    async (user_id: string, door_id: string) => {
      const answer = await simulateUnlock({ user_id, door_id });
      setMessage(`Kisi webhook ${answer.outcome}.`);
      onSent();
    },
    { onError: (error) => setMessage(isApiError(error) ? error.message : "The unlock could not be sent.") },
  );
  const doors = gyms.flatMap((g) =>
    g.doors.map((d) => ({
      value: d.integration.door_id,
      label: `${g.name}: ${d.integration.name}${d.integration.tracks_visits ? " (tracks visits)" : ""}`,
    })),
  );
  const send = () => {
    if (!userId || !doorId || sending.running) return;
    setMessage(null);
    void sending.run(userId, doorId);
  };
  return (
    <Card withBorder radius="md" padding="md" aria-label="Simulated door unlock">
      <Text fw={600} size="sm" mb="xs">
        Simulated Kisi (local only): send a door unlock
      </Text>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label="Member"
          placeholder="Choose a member"
          searchable
          data={(members?.data ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.email})` }))}
          value={userId}
          onChange={setUserId}
          w={300}
        />
        <Select
          label="Door"
          placeholder="Choose a door"
          data={doors}
          value={doorId}
          onChange={setDoorId}
          w={320}
        />
        <Button onClick={send} loading={sending.running} disabled={!userId || !doorId}>
          Unlock
        </Button>
      </Group>
      {message && (
        <Text size="sm" mt="xs" role="status">
          {message}
        </Text>
      )}
    </Card>
  );
}
