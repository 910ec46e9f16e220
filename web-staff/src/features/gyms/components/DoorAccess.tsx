import { requiredText, submitHandler, useAction, useZodForm, z } from "@gym/web/forms";
import { toast } from "@gym/web/toast";
import { Alert, Button, Code, Group, PasswordInput, Select, Stack, Switch, Table, Text } from "@mantine/core";
import { IconDoor } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import {
  connectKisi,
  type Gym,
  linkPlace,
  rotateKisiWebhook,
  useAccessIntegration,
  useAccessPlaces,
  usePlaceDoors,
} from "../api/gyms";

/**
 * The Kisi webhook address, shown once after it is made: its last segment is the secret (only a
 * hash is kept), so it cannot be shown again; a new one can be made, which ends the old one.
 */
function KisiWebhook({ organisationId, shownUrl }: { organisationId: string; shownUrl: string | null }) {
  const [url, setUrl] = useState<string | null>(shownUrl);
  useEffect(() => setUrl(shownUrl), [shownUrl]);
  const rotate = useAction(
    async () => {
      const made = await rotateKisiWebhook(organisationId);
      setUrl(made.webhook_url ?? null);
      toast.success("New Kisi webhook address made; the old one no longer works");
    },
    { errorSummary: "No new webhook address was made" },
  );
  return (
    <Stack gap="xs">
      {url ? (
        <Alert color="yellow" title="Kisi webhook address (shown once)">
          <Text size="sm">Enter this address as the webhook in Kisi now. It will not be shown again.</Text>
          <Code block aria-label="Kisi webhook address">
            {url}
          </Code>
        </Alert>
      ) : (
        <Text size="sm" c="dimmed">
          Kisi sends door events to a secret webhook address. Make a new one if it was lost or leaked.
        </Text>
      )}
      <Group>
        <Button variant="default" size="xs" onClick={() => void rotate.run()} loading={rotate.running}>
          Make a new webhook address
        </Button>
      </Group>
    </Stack>
  );
}

function ConnectKisi({
  organisationId,
  onConnected,
}: {
  organisationId: string;
  onConnected: (webhookUrl: string | null) => void;
}) {
  const form = useZodForm({ schema: z.object({ api_key: requiredText() }), initialValues: { api_key: "" } });
  const handleSubmit = submitHandler(
    form,
    async ({ api_key }) => {
      const connected = await connectKisi(organisationId, api_key);
      toast.success("Kisi connected");
      onConnected(connected.webhook_url ?? null);
    },
    { errorSummary: "Kisi was not connected" },
  );
  return (
    <form noValidate onSubmit={handleSubmit} aria-label="Connect Kisi">
      <Group align="flex-end">
        <PasswordInput
          label="Kisi API key"
          withAsterisk
          style={{ flex: 1 }}
          key={form.key("api_key")}
          {...form.getInputProps("api_key")}
        />
        <Button type="submit" loading={form.submitting}>
          Connect Kisi
        </Button>
      </Group>
    </form>
  );
}

/**
 * The Kisi place this gym's doors are in, and which of its doors track visits. Kisi is connected
 * once for the organisation (by an organisation admin).
 */
export function DoorAccess({
  gym,
  canConnect,
  onSaved,
}: {
  gym: Gym;
  canConnect: boolean;
  onSaved: (gym: Gym) => void;
}) {
  const organisationId = gym.organisation.id;
  const integration = useAccessIntegration(canConnect ? organisationId : undefined);
  const connected = canConnect ? Boolean(integration.data) : true;
  const places = useAccessPlaces(
    organisationId,
    connected && (!canConnect || integration.data !== undefined),
  );
  const [placeId, setPlaceId] = useState<string | null>(gym.place?.place_id ?? null);
  const doors = usePlaceDoors(organisationId, placeId);
  const [tracking, setTracking] = useState<Record<string, boolean>>({});
  const save = useAction(
    async () => {
      const saved = await linkPlace(
        gym.id,
        placeId,
        Object.entries(tracking).map(([id, tracks_visits]) => ({ id, tracks_visits })),
      );
      onSaved(saved);
      void places.mutate();
      toast.success(placeId ? "Doors saved" : "Place unlinked");
    },
    { errorSummary: "The doors were not saved" },
  );
  const [shownWebhookUrl, setShownWebhookUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!doors.data) return;
    setTracking(Object.fromEntries(doors.data.map((door) => [door.id, door.integration.tracks_visits])));
  }, [doors.data]);

  if (canConnect && integration.data === null) {
    return (
      <Stack gap="sm">
        <Text size="sm">Door access is not connected yet. Enter your organisation's Kisi API key.</Text>
        <ConnectKisi
          organisationId={organisationId}
          onConnected={(webhookUrl) => {
            setShownWebhookUrl(webhookUrl);
            void integration.mutate();
          }}
        />
      </Stack>
    );
  }
  if (places.error?.status === 409) {
    return <Alert color="gray">Door access is not connected yet. An organisation admin connects Kisi.</Alert>;
  }

  const options = (places.data ?? []).map((place) => ({
    value: place.id,
    label: place.gym_id && place.gym_id !== gym.id ? `${place.name} (${place.gym_name})` : place.name,
    disabled: Boolean(place.gym_id && place.gym_id !== gym.id),
  }));

  return (
    <Stack gap="md">
      {integration.data && (
        <>
          <Text size="sm" c="dimmed">
            Kisi connected (key {integration.data.api_key.masked}).
          </Text>
          <KisiWebhook organisationId={organisationId} shownUrl={shownWebhookUrl} />
        </>
      )}
      <Select
        label="Kisi place"
        placeholder={places.isLoading ? "Loading places…" : "Choose the place of this gym"}
        data={options}
        value={placeId}
        onChange={setPlaceId}
        clearable
        searchable
        leftSection={<IconDoor size={16} />}
      />
      {placeId && (
        <Table striped withTableBorder aria-label="Doors">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Door</Table.Th>
              <Table.Th>Tracks visits</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(doors.data ?? []).map((door) => (
              <Table.Tr key={door.id}>
                <Table.Td>{door.integration.name}</Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={`${door.integration.name} tracks visits`}
                    checked={tracking[door.id] ?? false}
                    onChange={(event) => {
                      const checked = event.currentTarget.checked;
                      setTracking((current) => ({ ...current, [door.id]: checked }));
                    }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group justify="flex-end">
        <Button onClick={() => void save.run()} loading={save.running} disabled={!placeId && !gym.place}>
          {placeId ? "Save place and doors" : "Unlink place"}
        </Button>
      </Group>
    </Stack>
  );
}
