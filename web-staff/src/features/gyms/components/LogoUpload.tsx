import { applyServerErrors, useAction } from "@gym/web/forms";
import { toast, toastApiError } from "@gym/web/toast";
import { Group, Image, Loader, Stack, Text } from "@mantine/core";
import { Dropzone, type FileRejection } from "@mantine/dropzone";
import { IconPhoto, IconUpload, IconX } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { type Gym, uploadLogo } from "../api/gyms";

export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
const ACCEPT = { "image/png": [".png"], "image/jpeg": [".jpg", ".jpeg"], "image/webp": [".webp"] };

/** Drop or pick a PNG, JPEG or WebP up to 5 MB; it is uploaded at once and previewed. */
export function LogoUpload({ gym, onSaved }: { gym: Gym; onSaved: (gym: Gym) => void }) {
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const save = useAction(
    async (file: File) => {
      const saved = await uploadLogo(gym.id, file);
      onSaved(saved);
      // The stored logo replaces the local preview.
      setPreview(null);
      toast.success("Logo uploaded");
    },
    {
      onError: (failure) => {
        setPreview(null);
        const fields = { file: "", collection: "" };
        const shown = applyServerErrors(
          { getValues: () => fields, setErrors: (errors) => setError(String(Object.values(errors)[0])) },
          failure,
        );
        if (!shown.applied) toastApiError(failure, "The logo was not uploaded");
      },
    },
  );
  const upload = (file: File) => {
    if (save.running) return;
    setError(null);
    setPreview(URL.createObjectURL(file));
    void save.run(file);
  };

  const reject = (rejections: FileRejection[]) => {
    const code = rejections[0]?.errors[0]?.code;
    setError(
      code === "file-too-large"
        ? "The logo may be at most 5 MB"
        : "The logo must be a PNG, JPEG or WebP image",
    );
  };

  const shown = preview ?? gym.logo;
  return (
    <Stack gap="sm">
      <Group align="flex-start" gap="lg" wrap="nowrap">
        {shown ? (
          <Image
            src={shown}
            alt={`${gym.name} logo`}
            w={96}
            h={96}
            fit="contain"
            radius="md"
            bd="1px solid var(--mantine-color-default-border)"
          />
        ) : (
          <Stack
            w={96}
            h={96}
            align="center"
            justify="center"
            bg="var(--mantine-color-default-hover)"
            style={{ borderRadius: 8 }}
          >
            <Text size="xs" c="dimmed">
              No logo
            </Text>
          </Stack>
        )}
        <Dropzone
          onDrop={(files) => files[0] && upload(files[0])}
          onReject={reject}
          maxSize={LOGO_MAX_BYTES}
          accept={ACCEPT}
          multiple={false}
          loading={save.running}
          style={{ flex: 1 }}
          aria-label="Upload logo"
          data-error={error ? "true" : undefined}
        >
          <Group justify="center" gap="md" mih={80} style={{ pointerEvents: "none" }}>
            <Dropzone.Accept>
              <IconUpload size={32} />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={32} />
            </Dropzone.Reject>
            <Dropzone.Idle>{save.running ? <Loader size="sm" /> : <IconPhoto size={32} />}</Dropzone.Idle>
            <div>
              <Text size="sm">Drag the logo here or click to choose a file</Text>
              <Text size="xs" c="dimmed">
                PNG, JPEG or WebP, at most 5 MB
              </Text>
            </div>
          </Group>
        </Dropzone>
      </Group>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
