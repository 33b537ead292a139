"""Production calendar: days, Mon–Fri weeks, calendar months and 4-4-5 fiscal periods."""
