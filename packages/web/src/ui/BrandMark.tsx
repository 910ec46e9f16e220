import { Group, Text, ThemeIcon } from "@mantine/core";
import { IconBarbell } from "@tabler/icons-react";

export interface BrandMarkProps {
  /** Words beside the mark. */
  label?: string;
  size?: "sm" | "md" | "lg";
}

const SIZES = {
  sm: { icon: 28, glyph: 16, text: "md" },
  md: { icon: 36, glyph: 20, text: "lg" },
  lg: { icon: 44, glyph: 26, text: "xl" },
} as const;

/** The product's mark: a barbell in a rounded tile and a word mark. */
export function BrandMark({ label = "Gym", size = "md" }: BrandMarkProps) {
  const s = SIZES[size];
  return (
    <Group gap="xs" wrap="nowrap">
      <ThemeIcon size={s.icon} radius="md" variant="filled" aria-hidden>
        <IconBarbell size={s.glyph} stroke={2} />
      </ThemeIcon>
      <Text fw={800} fz={s.text} lh={1} style={{ letterSpacing: "-0.01em" }}>
        {label}
      </Text>
    </Group>
  );
}
