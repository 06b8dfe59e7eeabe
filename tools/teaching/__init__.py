"""Teaching and grading: the slides (slides), the instructor's pack (instructor), the exercise
sheets (exercise_sheet) and grading submissions (grading/)."""
