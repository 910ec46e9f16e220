import type { PrivateLink } from "@gym/core/contract/price";
import { api } from "@gym/web/api";
import { useAction } from "@gym/web/forms";
import { Button, Group, Stack, Text } from "@mantine/core";
import { IconLink } from "@tabler/icons-react";
import { useState } from "react";
import { LinkRow } from "../../offerings/components/PrivateLinks";

/**
 * Organisation-wide age-bypass links (`POST /api/organisations/{id}/age-bypass-links`, spec 000
 * §7): a join-site address that lets someone under the minimum age register, with any offered
 * price. The API answers each link once, as it is made, and does not list them, so this shows the
 * links made here until the page is left; each is copied to the clipboard as it is made.
 */
export function AgeBypassLinks({ organisationId }: { organisationId: string }) {
  const [links, setLinks] = useState<PrivateLink[]>([]);
  const creation = useAction(
    async () => {
      const link = await api.post<PrivateLink>(`/api/organisations/${organisationId}/age-bypass-links`);
      setLinks((current) => [link, ...current]);
      await navigator.clipboard?.writeText(link.url).catch(() => undefined);
    },
    { errorSummary: "The link was not made" },
  );
  const create = creation.run;
  const creating = creation.running;

  return (
    <Stack gap="sm" component="section" aria-label="Age-bypass links">
      <Text fw={600}>Age-bypass link</Text>
      <Text size="sm" c="dimmed">
        A link that lets someone under the minimum age join online, at any of your gyms with any offered
        price. Give it only to the person it is for. Links are shown once, here, when they are made; copy it
        now.
      </Text>
      {links.map((link) => (
        <LinkRow key={link.id} link={link} label="Age-bypass link" />
      ))}
      <Group>
        <Button
          variant="light"
          leftSection={<IconLink size={16} />}
          loading={creating}
          onClick={() => void create()}
        >
          Make an age-bypass link
        </Button>
      </Group>
    </Stack>
  );
}
