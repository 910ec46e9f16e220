import {
  Avatar,
  Box,
  CloseButton,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from "@mantine/core";
import { useClickOutside } from "@mantine/hooks";
import { IconSearch } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { type SearchResult, searchMembers } from "../../members/api/members";

export interface GlobalSearchProps {
  /** Full width (the phone header's second row). */
  fullWidth?: boolean;
}

/** Spec 001 §9: the search input is debounced by 600 ms. */
export const SEARCH_DEBOUNCE_MS = 600;

type Phase =
  | { kind: "idle" }
  | { kind: "typing" }
  | { kind: "loading" }
  | { kind: "results"; query: string; results: SearchResult[] }
  | { kind: "failed"; message: string };

/**
 * The top bar's member search (spec 001 §2 "Top bar global search"): debounced by 600 ms; while
 * typing the results are hidden; a spinner while loading; results list name and email; choosing
 * one opens the member (members.show) and clears the search; zero results say `No results found
 * for "{query}"`; clicking outside or emptying the box clears it.
 */
export function GlobalSearch({ fullWidth = false }: GlobalSearchProps) {
  const navigate = useNavigate();
  const [value, setValue] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inflight = useRef<AbortController | null>(null);

  const stop = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    inflight.current?.abort();
    inflight.current = null;
  };
  const clear = () => {
    stop();
    setValue("");
    setPhase({ kind: "idle" });
  };
  const ref = useClickOutside(() => {
    if (value || phase.kind !== "idle") clear();
  });
  useEffect(() => stop, []);

  const onChange = (next: string) => {
    setValue(next);
    stop();
    if (!next.trim()) {
      setPhase({ kind: "idle" });
      return;
    }
    setPhase({ kind: "typing" });
    timer.current = setTimeout(() => {
      const controller = new AbortController();
      inflight.current = controller;
      setPhase({ kind: "loading" });
      searchMembers(next, controller.signal)
        .then((results) => {
          if (!controller.signal.aborted) setPhase({ kind: "results", query: next.trim(), results });
        })
        .catch((error: Error) => {
          if (!controller.signal.aborted)
            setPhase({ kind: "failed", message: error.message || "Search failed. Try again." });
        });
    }, SEARCH_DEBOUNCE_MS);
  };

  const choose = (result: SearchResult) => {
    clear();
    navigate(`/members/${encodeURIComponent(result.id)}`);
  };

  const open = phase.kind === "results" || phase.kind === "failed";
  return (
    <Box ref={ref} pos="relative" w={fullWidth ? "100%" : { base: "100%", sm: "20rem", lg: "24rem" }}>
      <TextInput
        type="search"
        aria-label="Search members"
        placeholder="Search members…"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") clear();
          if (event.key === "Enter" && phase.kind === "results" && phase.results[0]) choose(phase.results[0]);
        }}
        leftSection={<IconSearch size={16} />}
        rightSection={
          phase.kind === "loading" ? (
            <Loader size="xs" aria-label="Searching" />
          ) : value ? (
            <CloseButton size="sm" aria-label="Clear search" onClick={clear} />
          ) : null
        }
        // A search box (not a combobox: the results are buttons reached with Tab), so no
        // aria-expanded, which its role does not allow; the results are announced politely.
        aria-controls={open ? "global-search-results" : undefined}
      />
      {open && (
        <Paper
          id="global-search-results"
          // A list only when there is something to choose; a message otherwise (read out at once).
          role={phase.kind === "results" && phase.results.length > 0 ? "listbox" : "status"}
          aria-label="Search results"
          shadow="md"
          withBorder
          pos="absolute"
          top="calc(100% + 4px)"
          left={0}
          right={0}
          style={{ zIndex: 300, maxHeight: "24rem", overflowY: "auto" }}
        >
          {phase.kind === "failed" ? (
            <Text p="sm" size="sm" c="red">
              {phase.message}
            </Text>
          ) : phase.results.length === 0 ? (
            <Text p="sm" size="sm" c="dimmed">
              No results found for "{phase.query}"
            </Text>
          ) : (
            <Stack gap={0}>
              {phase.results.map((result) => (
                <UnstyledButton
                  key={result.id}
                  role="option"
                  aria-selected={false}
                  onClick={() => choose(result)}
                  px="sm"
                  py={8}
                  className="global-search-result"
                  style={{ borderBottom: "1px solid var(--mantine-color-default-border)" }}
                >
                  <Group gap="sm" wrap="nowrap">
                    <Avatar
                      src={result.profile_picture}
                      name={result.name}
                      alt=""
                      size={32}
                      radius="xl"
                      color="initials"
                    />
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600}>
                        {result.name}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                        {result.email}
                      </Text>
                    </Stack>
                  </Group>
                </UnstyledButton>
              ))}
            </Stack>
          )}
        </Paper>
      )}
    </Box>
  );
}
