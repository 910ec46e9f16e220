import { Box, TextInput, Tooltip } from "@mantine/core";
import { IconSearch } from "@tabler/icons-react";

export interface GlobalSearchProps {
  /** Full width (the phone header's second row). */
  fullWidth?: boolean;
}

/**
 * The top bar's member search (spec 001 §2 "Top bar global search"). This is the slot: the
 * members work replaces its body with the debounced search and results list; the top bar
 * keeps rendering `<GlobalSearch />` where it is.
 */
export function GlobalSearch({ fullWidth = false }: GlobalSearchProps) {
  return (
    <Tooltip label="Member search arrives with the members list" openDelay={300}>
      <Box w={fullWidth ? "100%" : { base: "100%", sm: "20rem", lg: "24rem" }}>
        <TextInput
          type="search"
          aria-label="Search members"
          placeholder="Search members…"
          leftSection={<IconSearch size={16} />}
          disabled
          styles={{ input: { cursor: "not-allowed" } }}
        />
      </Box>
    </Tooltip>
  );
}
