import { formatDateTime } from "@gym/web/format";
import { useAction } from "@gym/web/forms";
import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  CopyButton,
  Group,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from "@mantine/core";
import { IconCheck, IconCopy, IconLink } from "@tabler/icons-react";
import { useState } from "react";
import { createPrivateLink, type Price, type PrivateLink } from "../api/offerings";

/** One join-site link: when it was made, whether it bypasses the age check, the address to copy. */
export function LinkRow({
  link,
  label = "Private link",
}: {
  link: Pick<PrivateLink, "url" | "created_at" | "age_bypass">;
  label?: string;
}) {
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Created {formatDateTime(link.created_at)}
        </Text>
        {link.age_bypass && (
          <Badge size="sm" variant="light" color="grape">
            Age bypass
          </Badge>
        )}
      </Group>
      <TextInput
        readOnly
        value={link.url}
        aria-label={label}
        onFocus={(event) => event.currentTarget.select()}
        rightSection={
          <CopyButton value={link.url} timeout={2000}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? "Copied" : "Copy link"} withArrow position="left">
                <ActionIcon
                  color={copied ? "teal" : "gray"}
                  variant="subtle"
                  onClick={copy}
                  aria-label={copied ? "Copied" : "Copy link"}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        }
      />
    </Stack>
  );
}

export interface PrivateLinksProps {
  price: Price;
  canManage: boolean;
  onCreated: () => void;
}

/**
 * A price's private links: unguessable join-site addresses that open registration with this
 * price (age bypass also lets a member under the minimum age register). New links are copied to
 * the clipboard as they are made.
 */
export function PrivateLinks({ price, canManage, onCreated }: PrivateLinksProps) {
  const [ageBypass, setAgeBypass] = useState(false);

  const [fresh, setFresh] = useState<PrivateLink[]>([]);
  const known = new Set(price.private_links.map((link) => link.id));
  const links = [...price.private_links, ...fresh.filter((link) => !known.has(link.id))];

  const creation = useAction(
    async () => {
      const link = await createPrivateLink(price.id, ageBypass);
      setFresh((current) => [...current, link]);
      await navigator.clipboard?.writeText(link.url).catch(() => undefined);
      onCreated();
    },
    { errorSummary: "The link was not created" },
  );
  const create = creation.run;
  const creating = creation.running;

  return (
    <Stack gap="md">
      <Text size="sm">
        Anyone with a link can register with <strong>{price.label}</strong>
        {price.private ? ", although the price is private." : "."}
      </Text>
      {links.length === 0 ? (
        <Text size="sm" c="dimmed">
          No links yet.
        </Text>
      ) : (
        links.map((link) => <LinkRow key={link.id} link={link} />)
      )}
      {canManage && (
        <Group justify="space-between" align="flex-end">
          <Checkbox
            label="Let members under the minimum age register (age bypass)"
            checked={ageBypass}
            onChange={(event) => setAgeBypass(event.currentTarget.checked)}
          />
          <Button leftSection={<IconLink size={16} />} loading={creating} onClick={() => void create()}>
            Create link
          </Button>
        </Group>
      )}
    </Stack>
  );
}
