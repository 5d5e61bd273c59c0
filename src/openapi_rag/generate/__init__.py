"""From a request to something that runs: API calls (`generate.call`) and SQL (`generate.sql`), checked by execution."""
