import { StaffLayout } from "../components/StaffLayout";

export { StaffLayout as Component };
