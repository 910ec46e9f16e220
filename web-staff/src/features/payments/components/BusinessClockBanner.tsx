import { formatDateTime } from "@gym/web/format";
import { Alert } from "@mantine/core";
import { IconClockHour4 } from "@tabler/icons-react";
import { useBusinessClock } from "../api/payments";

/**
 * Locally, while the business clock is moved (`/api/dev/clock`), a small banner says which date
 * billing believes it is. In AWS the dev route does not exist (404) and nothing is shown.
 */
export function BusinessClockBanner() {
  const { data } = useBusinessClock();
  if (!data?.simulated) return null;
  return (
    <Alert
      color="violet"
      variant="light"
      py={6}
      mb="md"
      radius="md"
      icon={<IconClockHour4 size={16} />}
      data-testid="business-clock-banner"
    >
      Simulated business date: {formatDateTime(data.now)} (billing and jobs use this date; local only)
    </Alert>
  );
}
